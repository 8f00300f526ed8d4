package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;

/**
 * A client's cache traffic: puts of new keys (a PUT line once a put returned, so acknowledged by both owners:
 * FULL_SYNC, one backup) and gets of keys it put, checked against what it wrote. On {@code verify} it reads back
 * every key any client acknowledged before, from every log of the run.
 */
final class CacheWorkload extends Thread {
    private static final int VERIFY_BATCH = 500;
    private static final int REPORTED = 10;

    private final Ignite ignite;
    private final String prefix;
    private final EventLog log;
    private final Path dir;
    private final Random rnd = new Random();
    private final List<String> mine = new ArrayList<>();
    private volatile boolean stopping;

    CacheWorkload(Ignite ignite, String prefix, EventLog log, Path dir) {
        super("chaos-workload");
        setDaemon(true);
        this.ignite = ignite;
        this.prefix = prefix;
        this.log = log;
        this.dir = dir;
    }

    @Override public void run() {
        IgniteCache<String, String> cache = ignite.cache(NodeConfig.CACHE);

        for (long k = 0; !stopping; k++) {
            String key = prefix + '.' + k;

            try {
                cache.put(key, value(key));
                log.write("PUT", key);
                mine.add(key);

                if (k % 4 == 0)
                    check(cache, mine.get(rnd.nextInt(mine.size())));

                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                return;
            }
            catch (Exception e) {
                // Not acknowledged, so never checked: a put cut off by a fault may or may not have landed.
                log.write("PUTFAIL", key, ChaosNode.oneLine(e));
                pause();
            }
        }
    }

    void stopWorkload() {
        stopping = true;
    }

    private void check(IgniteCache<String, String> cache, String key) {
        String got = cache.get(key);

        if (!value(key).equals(got))
            log.write("GETBAD", key, got);
    }

    /** Reads back every key acknowledged before now; answers {@code VERIFY <seq> ok|bad|error ...}. */
    void verify(String seq) throws IOException {
        long asOf = System.currentTimeMillis();
        Set<String> keys = ackedKeys(asOf);
        IgniteCache<String, String> cache = ignite.cache(NodeConfig.CACHE);
        List<String> bad = new ArrayList<>();
        int badCount = 0;

        try {
            List<String> all = new ArrayList<>(keys);

            for (int i = 0; i < all.size(); i += VERIFY_BATCH) {
                Set<String> batch = new HashSet<>(all.subList(i, Math.min(all.size(), i + VERIFY_BATCH)));
                Map<String, String> got = cache.getAll(batch);

                for (String k : batch) {
                    if (!value(k).equals(got.get(k))) {
                        badCount++;

                        if (bad.size() < REPORTED)
                            bad.add(k + '=' + got.get(k));
                    }
                }
            }
        }
        catch (Exception e) {
            log.write("VERIFY", seq, "error", ChaosNode.oneLine(e));
            return;
        }

        if (badCount == 0)
            log.write("VERIFY", seq, "ok", keys.size());
        else
            log.write("VERIFY", seq, "bad", keys.size(), badCount, String.join(",", bad));
    }

    /** @return Keys of PUT lines written before {@code asOf} in every node log of the run. */
    private Set<String> ackedKeys(long asOf) throws IOException {
        Set<String> keys = new HashSet<>();

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(dir, "*.log")) {
            for (Path f : logs) {
                for (String line : wholeLines(f)) {
                    String[] p = line.split(" ");

                    if (p.length >= 3 && p[1].equals("PUT") && Long.parseLong(p[0]) < asOf)
                        keys.add(p[2]);
                }
            }
        }

        return keys;
    }

    /** @return The file's lines, less a last one still being written. */
    static List<String> wholeLines(Path f) throws IOException {
        String s = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
        int end = s.lastIndexOf('\n');

        return end < 0 ? List.of() : List.of(s.substring(0, end).split("\n"));
    }

    private static String value(String key) {
        return "v-" + key;
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
