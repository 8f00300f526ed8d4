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
    }

    /** @return Whether the line was a receipt. */
    boolean offer(String line) {
        String[] p = line.split(" ");

        if (!p[0].equals("@got") && !p[0].equals("@acked") && !p[0].equals("@fgot"))
            return false;

        String key = p[0] + " " + p[1];
        long t = Long.parseLong(p[2]);

        synchronized (this) {
            long[] v = seen.computeIfAbsent(key, k -> new long[2]);

            v[0]++;
            v[1] = Math.max(v[1], t);
            notifyAll();
        }

        return true;
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
