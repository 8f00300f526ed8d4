package io.zkion.discovery.bench.scale;

import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.system.IonReaderBuilder;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The results an earlier run wrote, kept for the shapes this run does not run: a run of one more shape (a slow one,
 * 1,000 members, say) leaves the table whole. Read with ion-java, whose text reader reads JSON.
 */
final class EarlierResults {
    private EarlierResults() {
    }

    /** @return {@code now}, and each result of {@code json} whose shape is not among them, by members then clients. */
    static List<Map<String, Object>> merged(Path json, List<Map<String, Object>> now) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>(now);

        for (Map<String, Object> r : read(json)) {
            if (now.stream().noneMatch(n -> sameShape(n, r)))
                out.add(r);
        }

        out.sort(Comparator.comparingLong((Map<String, Object> r) -> number(r.get("members")))
            .thenComparingLong(r -> number(r.get("clients"))));

        return out;
    }

    private static boolean sameShape(Map<String, Object> a, Map<String, Object> b) {
        return number(a.get("members")) == number(b.get("members")) && number(a.get("clients")) == number(b.get("clients"));
    }

    private static long number(Object v) {
        return v instanceof Number ? ((Number)v).longValue() : -1;
    }

    /** @return The results in {@code json}; none if there is no such file. */
    static List<Map<String, Object>> read(Path json) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();

        if (!Files.exists(json))
            return out;

        try (Reader in = Files.newBufferedReader(json, StandardCharsets.UTF_8);
             IonReader r = IonReaderBuilder.standard().build(in)) {
            if (r.next() != IonType.LIST)
                throw new IOException(json + " holds no list of results");

            r.stepIn();

            while (r.next() == IonType.STRUCT) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>)value(r);

                out.add(m);
            }
        }

        return out;
    }

    private static Object value(IonReader r) {
        switch (r.getType()) {
            case STRUCT: {
                Map<String, Object> m = new LinkedHashMap<>();

                r.stepIn();

                while (r.next() != null)
                    m.put(r.getFieldName(), value(r));

                r.stepOut();

                return m;
            }

            case LIST: {
                List<Object> l = new ArrayList<>();

                r.stepIn();

                while (r.next() != null)
                    l.add(value(r));

                r.stepOut();

                return l;
            }

            case INT:
                return r.getIntegerSize() == com.amazon.ion.IntegerSize.INT ? (Object)r.intValue() : (Object)r.longValue();

            case DECIMAL:
            case FLOAT:
                return r.doubleValue();

            case BOOL:
                return r.booleanValue();

            case NULL:
                return null;

            default:
                return Objects.toString(r.stringValue(), "");
        }
    }
}
