package io.zkion.discovery.bench.sidebyside;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;

/**
 * ZkIon Discovery, Ignite's stock ZooKeeper SPI and TcpDiscoverySpi, side by side: same Ignite, JVM, node count
 * and ZooKeeper server, SPIs alternating round by round so that drift hits all of them alike.
 * <p>
 * Usage: {@code SideBySide <outDir> [rounds]}. Writes side-by-side.json, side-by-side.md and PNG charts.
 */
public final class SideBySide {
    private static final int EVENTS_3 = 500;
    private static final int EVENTS_8 = 200;
    static final int EVENTS_16 = 200;
    private static final int ALLOC_EVENTS = 200;
    private static final int UNMARSHAL_RUNS = 2_000;

    /** Events sent before each round trip measurement, unmeasured, so that every SPI runs JIT-compiled code. */
    static final int WARMUP_EVENTS = 200;

    private static final int CACHE_CREATES = 20;
    static final int LARGE_CACHES = 200;
    private static final int FLOOR_SAMPLES = 500;
    private static final int FLOOR_PAYLOAD = 400;
    private static final int FAN_OUT_SAMPLES = 200;

    /** metric -> SPI -> one value per round (or per event, for latencies). */
    private final Map<String, Map<SpiKind, List<Double>>> results = new LinkedHashMap<>();

    /** What bounds the targets, whatever the SPI: bound -> values (per sample, or one per round). */
    private final Map<String, List<Double>> bounds = new LinkedHashMap<>();

    /** Each storm's and the cache creates' transaction log by directory, of the last round: "SPI what" -> markdown. */
    private final Map<String, String> lastWrites = new LinkedHashMap<>();

    private SideBySide() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        }
        catch (Throwable e) {
            // Printed here: Ignite's uncaught-exception handler would swallow it into a null logger.
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        Path out = Paths.get(args.length > 0 ? args[0] : "benchmarks/results");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;

        System.setProperty("zookeeper.4lw.commands.whitelist", "*");
        System.setProperty("IGNITE_QUIET", "true");
        System.setProperty("IGNITE_UPDATE_NOTIFIER", "false");

        SideBySide run = new SideBySide();

        try (TestingServer zk = new TestingServer(true)) {
            // The first Ignite start in a JVM loads and compiles most of Ignite: unmeasured, for every SPI, so that
            // the SPI that happens to run first does not pay for all.
            for (SpiKind kind : SpiKind.values()) {
                log("warm-up: " + kind);

                try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), "/bench-warmup-" + kind)) {
                    c.startTogether(3);
                    Scenarios.customRoundTrip(c.nodes(), WARMUP_EVENTS);
                }
            }

            for (int r = 0; r < rounds; r++) {
                log("round " + (r + 1) + "/" + rounds + ": ZooKeeper's floor, bare Curator");

                Bounds.ZooKeeperFloor f = Bounds.zooKeeper(zk.getConnectString(), FLOOR_SAMPLES, FLOOR_PAYLOAD);

                for (int i = 0; i < f.writeMs.length; i++) {
                    run.bound("bare Curator: one write (ms)", f.writeMs[i]);
                    run.bound(Targets.FLOOR_ROUND_TRIP, f.readMs[i]);
                }

                run.bound(Bounds.READER_BYTES,
                    f.readerBytesPerRead);

                for (int readers : new int[] {7, 15}) {
                    for (double ms : Bounds.zooKeeperFanOut(zk.getConnectString(), readers, FAN_OUT_SAMPLES,
                        FLOOR_PAYLOAD))
                        run.bound(Targets.fanOutFloor(readers), ms);
                }

                List<SpiKind> order = new ArrayList<>(Arrays.asList(SpiKind.values()));

                java.util.Collections.rotate(order, r);

                for (SpiKind kind : order) {
                    log("round " + (r + 1) + "/" + rounds + ": " + kind);
                    try {
                        run.round(kind, zk, "/bench-" + kind + "-" + r);
                        run.add("rounds that failed (count)", kind, 0);
                    }
                    catch (Exception e) {
                        // One SPI's bad round must not cost the whole run; it is counted and shown in the table.
                        log("round " + (r + 1) + " of " + kind + " failed: " + e);
                        e.printStackTrace(System.out);
                        run.add("rounds that failed (count)", kind, 1);
                    }
                }
            }
        }

        Files.createDirectories(out);
        new Report(run.results, run.bounds, run.lastWrites, rounds, LargeCaches.serializedSize(LARGE_CACHES))
            .write(out);
        log("wrote " + out.resolve("side-by-side.md"));
        System.exit(0); // Stock SPI and ZooKeeper threads may linger.
    }

    private void round(SpiKind kind, TestingServer zk, String root) throws Exception {
        int port = zk.getPort();

        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root)) {
            storm(kind, c, 3, zk, root);

            if (kind == SpiKind.ZKION) {
                add(DATA_ZNODE, kind,
                    Bounds.dataZnodeBytes(zk.getConnectString(), root));
            }

            List<Ignite> nodes = c.nodes();
            Ignite crd = c.oldest();

            Scenarios.customRoundTrip(nodes, WARMUP_EVENTS);

            long zk0 = Scenarios.zkBytesReceived(port);

            addAll("custom event round trip, 3 servers (ms)", kind, Scenarios.customRoundTrip(nodes, EVENTS_3));
            zkBytes("bytes sent to ZooKeeper per no-op custom event", kind, zk0, port, EVENTS_3);

            double[] crdAlloc = Scenarios.coordinatorAllocationPerEvent(nodes, crd, ALLOC_EVENTS);

            add("allocation per no-op custom event, coordinator's threads (bytes)", kind, crdAlloc[0]);
            add("allocation per no-op custom event, coordinator's discovery-SPI threads only (bytes)", kind, crdAlloc[1]);
            add("allocation per no-op custom event, coordinator's SPI threads less Ignite's listener run on them (bytes)",
                kind, crdAlloc[2]);
            add("allocation per no-op custom event, all nodes (bytes)", kind, Scenarios.allocationPerEvent(nodes, ALLOC_EVENTS));
            bound(Bounds.UNMARSHAL_BYTES, Bounds.unmarshalBytes(crd, UNMARSHAL_RUNS));

            Scenarios.CacheCreates cc = Scenarios.cacheCreates(BenchCluster.youngest(nodes), crd, CACHE_CREATES, port,
                () -> kind.usesZooKeeper() ? TxnLogTally.marker(zk.getConnectString()) : -1L);

            if (kind.usesZooKeeper()) {
                TxnLogTally written = TxnLogTally.read(zk, cc.fromZxid, cc.toZxid, root);

                add(WRITTEN_PER_CACHE_CREATE, kind, written.totalBytes() / (double)CACHE_CREATES);
                lastWrites.put(kind + " cache creates", written.markdown(kind + ", " + CACHE_CREATES
                    + " cache creates", CACHE_CREATES, "create"));
            }

            add("cache create, one after another (ms per cache)", kind, cc.msPerCache);
            add("allocation per cache create, coordinator's threads (bytes)", kind, cc.coordinatorBytesPerCache);

            if (kind.usesZooKeeper())
                add("bytes sent to ZooKeeper per cache create", kind, cc.zkBytesPerCache);

            add(Targets.CACHE_CREATE_MESSAGE, kind, cc.messageBytes);

            // Named by join order, never the coordinator: the start order of a storm says nothing of who founded it.
            Ignite leaving = BenchCluster.youngest(nodes);
            List<Ignite> rest = new ArrayList<>(nodes);

            rest.remove(leaving);
            rest.remove(crd);

            Ignite failing = rest.get(0);

            log(kind + ": the node of join order " + leaving.cluster().localNode().order() + " leaves, then that of "
                + failing.cluster().localNode().order() + " loses its session");

            double[] leave = Scenarios.leave(c, leaving);

            add("graceful leave until NODE_LEFT everywhere (ms)", kind, leave[0]);
            add("graceful leave: Ignition.stop until Ignite called the SPI's stop (ms)", kind, leave[1]);
            add("graceful leave: Ignition.stop until every SPI handed NODE_LEFT to Ignite (ms)", kind, leave[2]);
            add("session loss until NODE_FAILED everywhere (ms)", kind, Scenarios.failure(c, failing));
        }

        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root + "-8")) {
            storm(kind, c, 8, zk, root + "-8");
            Scenarios.customRoundTrip(c.nodes(), WARMUP_EVENTS);
            addAll("custom event round trip, 8 servers (ms)", kind, Scenarios.customRoundTrip(c.nodes(), EVENTS_8));
        }

        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root + "-16")) {
            storm(kind, c, 16, zk, root + "-16");

            Scenarios.customRoundTrip(c.nodes(), WARMUP_EVENTS);
            addAll("custom event round trip, 16 servers (ms)", kind, Scenarios.customRoundTrip(c.nodes(), EVENTS_16));
        }

        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root + "-large")) {
            double[] r = Scenarios.largeJoin(c, LARGE_CACHES, port);

            add("join of a node with " + LARGE_CACHES + " caches (ms; -1 = failed)", kind, r[0]);

            if (kind.usesZooKeeper())
                add("bytes sent to ZooKeeper by the join with " + LARGE_CACHES + " caches", kind, r[1]);
        }
    }

    /**
     * A storm of {@code count} servers, with what bounds it: the JVM's CPU per core (near the wall time, the storm was
     * CPU-bound whatever the SPI), the SPI's threads' CPU and, of it, Ignite's work and ZooKeeper's send threads; the
     * bytes ZooKeeper received per join and, from its transaction log, the data written per join.
     */
    private void storm(SpiKind kind, BenchCluster c, int count, TestingServer zk, String root) throws Exception {
        StormMeter.Storm s = StormMeter.measure(c, kind, count, zk, root);
        String storm = "join storm, " + count + " servers";

        add(storm + " (ms)", kind, s.wallMs);
        add(storm + ": JVM CPU time / cores (ms)", kind, s.jvmCpuPerCoreMs);
        // What the SPI itself cost of it: its threads by name (the part of Ignite's listener they run included).
        add(storm + ": CPU of the discovery SPI's own threads (ms)", kind, s.spiCpuMs);
        add(storm + ": of the SPI's threads, Ignite's listener and data exchange (ms)", kind, s.igniteOnSpiCpuMs);
        add(storm + ": of the SPI's threads, ZooKeeper's send threads (ms)", kind, s.zkSendCpuMs);

        if (s.receivedPerJoin >= 0)
            add("bytes sent to ZooKeeper per join, " + count + " servers started together", kind, s.receivedPerJoin);

        if (s.written != null) {
            add(writtenPerJoin(count), kind, s.written.totalBytes() / (double)count);
            lastWrites.put(kind + " " + count, s.written.markdown(kind + ", " + count + " servers", count));
        }
    }

    /** @return The row of the data a storm of {@code count} wrote per join, from the server's transaction log. */
    static String writtenPerJoin(int count) {
        return "data written to ZooKeeper per join, " + count + " servers (its transaction log)";
    }

    /** The row of ZkIon's data znodes' size: each joiner's node and joining data, written once. */
    static final String DATA_ZNODE = "ZkIon: one joiner's data znode, its node and joining data written once (bytes)";

    /** The row of the data a cache create wrote, from the server's transaction log. */
    static final String WRITTEN_PER_CACHE_CREATE = "data written to ZooKeeper per cache create (its transaction log)";

    private void zkBytes(String metric, SpiKind kind, long before, int port, int per) {
        long after = Scenarios.zkBytesReceived(port);

        if (kind.usesZooKeeper() && before >= 0 && after >= 0)
            add(metric, kind, (after - before) / (double)per);
    }

    private void add(String metric, SpiKind kind, double v) {
        results.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(kind, k -> new ArrayList<>()).add(v);
    }

    private void bound(String what, double v) {
        bounds.computeIfAbsent(what, k -> new ArrayList<>()).add(v);
    }

    private void addAll(String metric, SpiKind kind, double[] vs) {
        for (double v : vs)
            add(metric, kind, v);
    }

    static void log(String s) {
        System.out.println(String.format(Locale.ROOT, "[side-by-side %tT] %s", System.currentTimeMillis(), s));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
