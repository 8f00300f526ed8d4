package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.cache.affinity.Affinity;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteNodeAttributes;

/**
 * A client's cache traffic: each of its keys written again and again, every value naming its version (a PUT line with
 * the version once a put returned, so acknowledged by both owners: FULL_SYNC, one backup), and gets of keys it wrote,
 * checked against the versions. With one writer to a key, a read must give at least its last acknowledged version: a
 * lost update shows as an older one, not only a missing key. On {@code verify} it reads back every key any client
 * acknowledged before, from every log of the run.
 */
final class CacheWorkload extends Thread {
    private static final int VERIFY_BATCH = 500;
    private static final int REPORTED = 10;

    /** Keys per incarnation: each is written about once every 3 s at the workload's pace, so most many times. */
    private static final int KEYS = 64;

    private final Ignite ignite;
    private final String prefix;
    private final EventLog log;
    private final Path dir;
    private final Random rnd = new Random();
    /** By key index: the last version acknowledged, and the last one tried (it may have landed when its put failed). */
    private final long[] acked = new long[KEYS];
    private final long[] tried = new long[KEYS];
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

        for (long n = 0; !stopping; n++) {
            int k = rnd.nextInt(KEYS);
            String key = prefix + '.' + k;
            long ver = ++tried[k];

            try {
                cache.put(key, value(key, ver));
                acked[k] = ver;
                log.write("PUT", key, ver);

                if (n % 4 == 0)
                    check(cache, rnd.nextInt(KEYS));

                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                return;
            }
            catch (Exception e) {
                // Not acknowledged: a put cut off by a fault may or may not have landed, so a read may give it.
                log.write("PUTFAIL", key, ver, ChaosNode.oneLine(e));
                pause();
            }
        }
    }

    void stopWorkload() {
        stopping = true;
    }

    /** A read of key {@code k} gives a version from its last acknowledged to its last tried. */
    private void check(IgniteCache<String, String> cache, int k) {
        if (tried[k] == 0)
            return;

        String key = prefix + '.' + k;
        String got = cache.get(key);
        long ver = version(key, got);

        if (ver < acked[k] || ver > tried[k]) {
            log.write("GETBAD", key, got, "acknowledged " + acked[k] + ", tried " + tried[k]);
            explain(cache, key, k);
        }
    }

    /**
     * After a bad read, for whoever reads the log: where this node's affinity put the key then, and what a read gives
     * 500 ms later (a write lost for good, or a read that missed it while owners changed). The bad read stays a
     * violation either way.
     */
    private void explain(IgniteCache<String, String> cache, String key, int k) {
        try {
            Affinity<String> aff = ignite.affinity(NodeConfig.CACHE);
            int part = aff.partition(key);
            StringBuilder owners = new StringBuilder();

            for (ClusterNode n : aff.mapPartitionToPrimaryAndBackups(part)) {
                owners.append(owners.length() == 0 ? "" : ",").append((String)n.attribute(IgniteNodeAttributes.ATTR_IGNITE_INSTANCE_NAME))
                    .append('#').append(n.order());
            }

            log.write("GETBADAT", key, "partition=" + part, "topVer=" + ignite.cluster().topologyVersion(),
                "owners=" + owners);

            Thread.sleep(500);

            String again = cache.get(key);
            long ver = version(key, again);

            log.write("REREAD", key, again, ver >= acked[k] && ver <= tried[k] ? "ok" : "bad");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Exception e) {
            log.write("REREAD", key, "error", ChaosNode.oneLine(e));
        }
    }

    /**
     * Reads back every key acknowledged before now, each at its last version acknowledged then or a later one; answers
     * {@code VERIFY <seq> ok|bad|error ...}.
     */
    void verify(String seq) throws IOException {
        long asOf = System.currentTimeMillis();
        Map<String, Long> keys = ackedVersions(asOf);
        IgniteCache<String, String> cache = ignite.cache(NodeConfig.CACHE);
        List<String> bad = new ArrayList<>();
        int badCount = 0;

        try {
            List<String> all = new ArrayList<>(keys.keySet());

            for (int i = 0; i < all.size(); i += VERIFY_BATCH) {
                Set<String> batch = new HashSet<>(all.subList(i, Math.min(all.size(), i + VERIFY_BATCH)));
                Map<String, String> got = cache.getAll(batch);

                for (String k : batch) {
                    if (!keeps(k, keys.get(k), got.get(k))) {
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

    /** @return By key, the last version a PUT line written before {@code asOf} gives, in every node log of the run. */
    private Map<String, Long> ackedVersions(long asOf) throws IOException {
        Map<String, Long> keys = new HashMap<>();

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(dir, "*.log")) {
            for (Path f : logs) {
                for (String line : wholeLines(f)) {
                    String[] p = line.split(" ");

                    if (p.length >= 4 && p[1].equals("PUT") && Long.parseLong(p[0]) < asOf)
                        keys.merge(p[2], Long.parseLong(p[3]), Math::max);
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

    static String value(String key, long ver) {
        return key + '#' + ver;
    }

    /**
     * @return Whether {@code got}, read after version {@code acked} of {@code key} was acknowledged, keeps it: that
     *      version or a later one of the same key (the key's only writer went on). Missing, older or another key's is
     *      a lost update.
     */
    static boolean keeps(String key, long acked, String got) {
        return version(key, got) >= acked;
    }

    /** @return The version {@code value} names for {@code key}; 0 for none (absent) and -1 for a value not its own. */
    static long version(String key, String value) {
        if (value == null)
            return 0;

        int at = value.lastIndexOf('#');

        if (at < 0 || !value.substring(0, at).equals(key))
            return -1;

        try {
            return Long.parseLong(value.substring(at + 1));
        }
        catch (NumberFormatException e) {
            return -1;
        }
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
