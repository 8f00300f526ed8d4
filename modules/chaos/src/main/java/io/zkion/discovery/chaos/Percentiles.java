package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Nearest-rank percentiles of a few dozen samples. */
public final class Percentiles {
    private Percentiles() {
    }

    /** @return The {@code p}th percentile (nearest rank), or -1 without samples. */
    public static long of(List<Long> samples, int p) {
        if (samples.isEmpty())
            return -1;

        List<Long> s = new ArrayList<>(samples);

        Collections.sort(s);

        int rank = (int)Math.ceil(p / 100.0 * s.size());

        return s.get(Math.max(0, Math.min(s.size() - 1, rank - 1)));
    }
}
