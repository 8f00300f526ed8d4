package io.zkion.discovery.bench.scale;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * When each message reached every member of the run: every member JVM reports the moment its last member had it
 * ({@code @got}, {@code @acked}, {@code @fgot}), and a message is everywhere once every JVM reported it.
 */
final class Receipts {
    private final Map<String, long[]> seen = new ConcurrentHashMap<>();
    private volatile int jvms;

    /** @param jvms How many JVMs must report each message from now on. */
    void expectJvms(int jvms) {
        this.jvms = jvms;
        seen.clear();
        spreads.clear();
    }

    /** Each JVM's first and last receipt of a message, by the receipt's key: where the wait for the last went. */
    private final Map<String, Map<String, long[]>> spreads = new ConcurrentHashMap<>();

    /** @return Whether the line, from JVM {@code jvm}, was a receipt. */
    boolean offer(String jvm, String line) {
        String[] p = line.split(" ");

        if (!p[0].equals("@got") && !p[0].equals("@acked") && !p[0].equals("@fgot"))
            return false;

        String key = p[0] + " " + p[1];
        long t = Long.parseLong(p[2]);

        if (p.length > 3 && p[0].equals("@got"))
            spreads.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(jvm, new long[] {t, Long.parseLong(p[3])});

        synchronized (this) {
            long[] v = seen.computeIfAbsent(key, k -> new long[2]);

            v[0]++;
            v[1] = Math.max(v[1], t);
            notifyAll();
        }

        return true;
    }

    /** @return Each JVM's last and first receipt (wall-clock micros) of {@code kind} {@code id}, by JVM; forgotten. */
    Map<String, long[]> spread(String kind, long id) {
        Map<String, long[]> s = spreads.remove("@" + kind + " " + id);

        return s == null ? Map.of() : s;
    }

    /**
     * @param kind {@code got}, {@code acked} or {@code fgot}.
     * @return When the last member had it (wall-clock micros).
     */
    synchronized long await(String kind, long id, long timeoutMs) throws InterruptedException {
        String key = "@" + kind + " " + id;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);

        while (true) {
            long[] v = seen.get(key);

            if (v != null && v[0] >= jvms) {
                seen.remove(key);
                return v[1];
            }

            long left = end - System.nanoTime();

            if (left <= 0) {
                throw new IllegalStateException(key + ": " + (v == null ? 0 : v[0]) + " of " + jvms
                    + " JVMs had it after " + timeoutMs + " ms");
            }

            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
