package io.zkion.discovery.bench.sidebyside;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.zkion.discovery.bench.sidebyside.Report.percentile;

/**
 * For each of issue 23's targets, what bounds it, from the figures of the same run (p50s): what any SPI on ZooKeeper
 * must spend there, and how ZkIon's figure splits into that and its own part. Written under the report's table.
 */
final class TargetBounds {
    private final Targets.Run run;
    private final Map<String, String> lastWrites;

    TargetBounds(Targets.Run run, Map<String, String> lastWrites) {
        this.run = run;
        this.lastWrites = lastWrites;
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("\n## What bounds each target, in this run\n\np50s of this run's rows;")
            .append(" \"the SPI's own\" is the CPU of the SPI's threads less Ignite's listener and data exchange run on")
            .append(" them and less ZooKeeper's send threads (each session's socket I/O), which any SPI on ZooKeeper")
            .append(" runs. A ZooKeeper session's event thread runs its user's callbacks: it counts as the SPI's own.\n\n");

        for (int n : new int[] {3, 8, 16})
            storm(sb, n);

        spiCpu(sb);

        for (int n : new int[] {3, 16})
            joinBytes(sb, n);

        cacheCreate(sb);
        allocation(sb);
        roundTrips(sb);

        if (!lastWrites.isEmpty()) {
            sb.append("\n### What the storms and the cache creates wrote, by directory (the last round's, from the server's")
                .append(" transaction log)")
                .append("\n\nThe data of every create and setData, a multi's operations one by one, path not included.\n\n");

            for (String table : lastWrites.values())
                sb.append(table.replace("## ", "#### ")).append('\n');
        }

        return sb.toString();
    }

    private void storm(StringBuilder sb, int n) {
        String s = "join storm, " + n + " servers";
        double ours = p50(s + " (ms)", SpiKind.ZKION);
        double stock = p50(s + " (ms)", SpiKind.STOCK_ZK);
        double cpu = p50(s + ": JVM CPU time / cores (ms)", SpiKind.ZKION);
        double own = own(s, SpiKind.ZKION);

        if (missing(ours, stock, cpu, own))
            return;

        double without = cpu - own / Runtime.getRuntime().availableProcessors();

        sb.append(String.format(Locale.ROOT, "- **Join storm, %d servers** (target %.0f ms, 0.8x stock's %.0f): ZkIon"
                + " took %.0f ms. Wall time is at least the JVM's CPU over the cores, here %.0f ms, of which the SPI's own"
                + " CPU was %.0f ms over %d cores: without any of it, that floor would be %.0f ms, %.2fx stock's wall"
                + " time. %s%n",
            n, 0.8 * stock, stock, ours, cpu, own, Runtime.getRuntime().availableProcessors(), without, without / stock,
            ours > cpu ? String.format(Locale.ROOT, "The other %.0f ms the storm waited rather than computed: steps"
                + " one after another (the founding, each answer, each joiner's Ignite taking its join in).", ours - cpu)
                : "The storm was CPU-bound."));
    }

    private void spiCpu(StringBuilder sb) {
        String s = "join storm, 16 servers";
        double ours = p50(s + ": CPU of the discovery SPI's own threads (ms)", SpiKind.ZKION);
        double stock = p50(s + ": CPU of the discovery SPI's own threads (ms)", SpiKind.STOCK_ZK);
        double ignite = p50(s + ": of the SPI's threads, Ignite's listener and data exchange (ms)", SpiKind.ZKION);
        double zk = p50(s + ": of the SPI's threads, ZooKeeper's send threads (ms)", SpiKind.ZKION);

        if (missing(ours, stock, ignite, zk))
            return;

        sb.append(String.format(Locale.ROOT, "- **The SPI's CPU in the 16-server storm** (target %.0f ms, 0.5x stock's"
                + " %.0f): ZkIon's threads took %.0f ms: Ignite's listener and data exchange %.0f, ZooKeeper's send"
                + " threads %.0f, its own %.0f. With the first two as they were, its own would have to fall to %.0f ms."
                + " The stock SPI's own was %.0f ms (Ignite's work %.0f, ZooKeeper's send threads %.0f).%n",
            0.5 * stock, stock, ours, ignite, zk, own(s, SpiKind.ZKION), 0.5 * stock - ignite - zk,
            own(s, SpiKind.STOCK_ZK), p50(s + ": of the SPI's threads, Ignite's listener and data exchange (ms)",
                SpiKind.STOCK_ZK), p50(s + ": of the SPI's threads, ZooKeeper's send threads (ms)", SpiKind.STOCK_ZK)));
    }

    private void joinBytes(StringBuilder sb, int n) {
        String received = "bytes sent to ZooKeeper per join, " + n + " servers started together";
        double ours = p50(received, SpiKind.ZKION);
        double stock = p50(received, SpiKind.STOCK_ZK);
        double written = p50(SideBySide.writtenPerJoin(n), SpiKind.ZKION);
        double stockWritten = p50(SideBySide.writtenPerJoin(n), SpiKind.STOCK_ZK);
        double dataZnode = p50(SideBySide.DATA_ZNODE, SpiKind.ZKION);

        if (missing(ours, stock, written, stockWritten))
            return;

        sb.append(String.format(Locale.ROOT, "- **Bytes per join, %d servers** (target %,.0f B, 0.5x stock's %,.0f):"
                + " ZkIon sent %,.0f B, of which %,.0f B were data written (the joiner's data znode, its node and"
                + " joining data written once, %,.0f B of it) and %,.0f B requests, paths, reads and checks on top. The"
                + " stock SPI wrote %,.0f B and sent %,.0f B on top.%n",
            n, 0.5 * stock, stock, ours, written, dataZnode, ours - written, stockWritten, stock - stockWritten));
    }

    private void cacheCreate(StringBuilder sb) {
        double ours = p50("bytes sent to ZooKeeper per cache create", SpiKind.ZKION);
        double msg = p50(Targets.CACHE_CREATE_MESSAGE, SpiKind.ZKION);
        double written = p50(SideBySide.WRITTEN_PER_CACHE_CREATE, SpiKind.ZKION);

        if (missing(ours, msg, written))
            return;

        sb.append(String.format(Locale.ROOT, "- **Bytes per cache create** (target %,.0f B, Ignite's message %,.0f B +"
                + " 300): ZkIon sent %,.0f B: %,.0f B of data written (the message and %,.0f B more: the entry's"
                + " wrapping, and acks that fell among the creates) and %,.0f B of requests, paths, reads and checks.%n",
            msg + 300, msg, ours, written, written - msg, ours - written));
    }

    private void allocation(StringBuilder sb) {
        List<Double> read = run.bounds.get(Bounds.READER_BYTES);
        List<Double> unmarshal = run.bounds.get(Bounds.UNMARSHAL_BYTES);
        double stock = p50("allocation per no-op custom event, coordinator's threads (bytes)", SpiKind.STOCK_ZK);
        double ours = p50("allocation per no-op custom event, coordinator's threads (bytes)", SpiKind.ZKION);

        if (read == null || unmarshal == null || Double.isNaN(stock) || Double.isNaN(ours))
            return;

        double sum = percentile(read, 50) + percentile(unmarshal, 50);

        sb.append(String.format(Locale.ROOT, "- **Coordinator allocation per no-op event** (target %,.0f B, 0.25x"
                + " stock's %,.0f): a bare read of it and Ignite's unmarshal of it, what any SPI's coordinator"
                + " allocates, are %,.0f B, %.2fx stock's; ZkIon's coordinator allocated %,.0f B.%n",
            0.25 * stock, stock, sum, sum / stock, ours));
    }

    private void roundTrips(StringBuilder sb) {
        double floor = bound(Targets.FLOOR_ROUND_TRIP);
        double ours3 = p50("custom event round trip, 3 servers (ms)", SpiKind.ZKION);

        if (!Double.isNaN(floor) && !Double.isNaN(ours3)) {
            sb.append(String.format(Locale.ROOT, "- **Round trip, 3 servers** (target %.2f ms, 1.5x the floor): a bare"
                + " write until another client has read it took %.2f ms; ZkIon's trip %.2f ms, which also holds"
                + " Ignite's marshal, unmarshal and listener.%n", 1.5 * floor, floor, ours3));
        }

        int[][] sizes = {{8, 7}, {16, 15}};
        double[] maxVsTcp = {1.0, 0.5};

        for (int i = 0; i < sizes.length; i++) {
            String metric = "custom event round trip, " + sizes[i][0] + " servers (ms)";
            double tcp = p50(metric, SpiKind.TCP);
            double ours = p50(metric, SpiKind.ZKION);
            double fan = bound(Targets.fanOutFloor(sizes[i][1]));

            if (missing(tcp, ours, fan))
                continue;

            sb.append(String.format(Locale.ROOT, "- **Round trip, %d servers** (target %.2f ms, %.1fx TCP's %.2f): a"
                    + " bare write until %d other clients have each read it took %.2f ms (%.2fx TCP's), the least any"
                    + " SPI on one ZooKeeper server pays here; ZkIon's trip %.2f ms.%n",
                sizes[i][0], maxVsTcp[i] * tcp, maxVsTcp[i], tcp, sizes[i][1], fan, fan / tcp, ours));
        }
    }

    /** @return Whether a figure a bound needs is missing from the run (a p50 of nothing). */
    private static boolean missing(double... figures) {
        for (double f : figures) {
            if (Double.isNaN(f))
                return true;
        }

        return false;
    }

    /** @return The CPU of the SPI's threads less Ignite's work and ZooKeeper's send threads there, p50s. */
    private double own(String storm, SpiKind kind) {
        return p50(storm + ": CPU of the discovery SPI's own threads (ms)", kind)
            - p50(storm + ": of the SPI's threads, Ignite's listener and data exchange (ms)", kind)
            - p50(storm + ": of the SPI's threads, ZooKeeper's send threads (ms)", kind);
    }

    private double p50(String metric, SpiKind kind) {
        List<Double> v = run.of(metric, kind);

        return v == null || v.isEmpty() ? Double.NaN : percentile(v, 50);
    }

    private double bound(String what) {
        List<Double> v = run.bounds.get(what);

        return v == null || v.isEmpty() ? Double.NaN : percentile(v, 50);
    }
}
