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
    private static final int ALLOC_EVENTS = 200;

    /** metric -> SPI -> one value per round (or per event, for latencies). */
    private final Map<String, Map<SpiKind, List<Double>>> results = new LinkedHashMap<>();

    private SideBySide() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args.length > 0 ? args[0] : "benchmarks/results");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;

        System.setProperty("zookeeper.4lw.commands.whitelist", "*");
        System.setProperty("IGNITE_QUIET", "true");
        System.setProperty("IGNITE_UPDATE_NOTIFIER", "false");

        SideBySide run = new SideBySide();

        try (TestingServer zk = new TestingServer(true)) {
            for (int r = 0; r < rounds; r++) {
                List<SpiKind> order = new ArrayList<>(Arrays.asList(SpiKind.values()));

                java.util.Collections.rotate(order, r);

                for (SpiKind kind : order) {
                    log("round " + (r + 1) + "/" + rounds + ": " + kind);
                    run.round(kind, zk, "/bench-" + kind + "-" + r);
                }
            }
        }

        Files.createDirectories(out);
        new Report(run.results, rounds).write(out);
        log("wrote " + out.resolve("side-by-side.md"));
        System.exit(0); // Stock SPI and ZooKeeper threads may linger.
    }

    private void round(SpiKind kind, TestingServer zk, String root) throws Exception {
        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root)) {
            add("join storm, 3 servers (ms)", kind, c.startTogether(3));

            List<Ignite> nodes = c.nodes();
            long zk0 = Scenarios.zkBytesReceived(zk.getPort());

            addAll("custom event round trip, 3 servers (ms)", kind, Scenarios.customRoundTrip(nodes, EVENTS_3));

            long zk1 = Scenarios.zkBytesReceived(zk.getPort());

            if (kind.usesZooKeeper() && zk0 >= 0 && zk1 >= 0)
                add("bytes sent to ZooKeeper per no-op custom event", kind, (zk1 - zk0) / (double)EVENTS_3);

            add("allocation per no-op custom event, all nodes (bytes)", kind, Scenarios.allocationPerEvent(nodes, ALLOC_EVENTS));
            add("graceful leave until NODE_LEFT everywhere (ms)", kind, Scenarios.leave(c, nodes.get(2)));
            add("session loss until NODE_FAILED everywhere (ms)", kind, Scenarios.failure(c, nodes.get(1)));
        }

        try (BenchCluster c = new BenchCluster(kind, zk.getConnectString(), root + "-8")) {
            add("join storm, 8 servers (ms)", kind, c.startTogether(8));
            addAll("custom event round trip, 8 servers (ms)", kind, Scenarios.customRoundTrip(c.nodes(), EVENTS_8));
        }
    }

    private void add(String metric, SpiKind kind, double v) {
        results.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(kind, k -> new ArrayList<>()).add(v);
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
