package io.zkion.discovery.bench.sidebyside;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.zkion.discovery.bench.sidebyside.Report.percentile;

/**
 * Issue 23's targets, one rule a metric, and each rule's verdict on a run. Most compare ZkIon with the stock SPI of the
 * same run; the round trips compare it with TcpDiscoverySpi or with ZooKeeper's own floor, and a cache create's bytes
 * with Ignite's own message.
 */
final class Targets {
    /** The bare-ZooKeeper floor of a round trip (a write until another client has read it), from {@link Bounds}. */
    static final String FLOOR_ROUND_TRIP = "bare Curator: a write until another client has read it (ms)";

    /** The bare-ZooKeeper floor of a fan-out: a write until {@code readers} other clients have read it. */
    static String fanOutFloor(int readers) {
        return "bare Curator: a write until " + readers + " other clients have read it (ms)";
    }

    /** The message of a cache create, marshalled and compressed as every SPI must send it. */
    static final String CACHE_CREATE_MESSAGE =
        "cache create message (Ignite's DynamicCacheChangeBatch), marshalled and compressed (bytes)";

    /** A run's figures: metric -> SPI -> samples, and bound -> samples. */
    static final class Run {
        final Map<String, Map<SpiKind, List<Double>>> results;
        final Map<String, List<Double>> bounds;

        Run(Map<String, Map<SpiKind, List<Double>>> results, Map<String, List<Double>> bounds) {
            this.results = results;
            this.bounds = bounds;
        }

        List<Double> of(String metric, SpiKind kind) {
            Map<SpiKind, List<Double>> m = results.get(metric);

            return m == null ? null : m.get(kind);
        }
    }

    /** One target: its verdict on a run, or null if a figure it needs is missing. */
    interface Rule {
        String verdict(String metric, Run run);
    }

    private static final Map<String, Rule> RULES = new LinkedHashMap<>();

    static {
        RULES.put("join storm, 3 servers (ms)", vsStock(0.8));
        RULES.put("join storm, 8 servers (ms)", vsStock(0.8));
        RULES.put("join storm, 16 servers (ms)", vsStock(0.8));
        RULES.put("join storm, 16 servers: CPU of the discovery SPI's own threads (ms)", vsStock(0.5));
        RULES.put("bytes sent to ZooKeeper per join, 3 servers started together", vsStock(0.5));
        RULES.put("bytes sent to ZooKeeper per join, 16 servers started together", vsStock(0.5));
        RULES.put("bytes sent to ZooKeeper per cache create", plusMessage(CACHE_CREATE_MESSAGE, 300));
        RULES.put("allocation per no-op custom event, coordinator's threads (bytes)", vsStock(0.25));
        RULES.put("custom event round trip, 3 servers (ms)", vsFloor(FLOOR_ROUND_TRIP, 1.5));
        RULES.put("custom event round trip, 8 servers (ms)", vsTcp(1.0));
        RULES.put("custom event round trip, 16 servers (ms)", vsTcp(0.5));
        RULES.put("session loss until NODE_FAILED everywhere (ms)", vsStock(1.0));
    }

    private Targets() {
    }

    /** @return The verdict on {@code metric}'s target, or "" if it has none or a figure is missing. */
    static String verdict(String metric, Run run) {
        Rule r = RULES.get(metric);
        String v = r == null ? null : r.verdict(metric, run);

        return v == null ? "" : v;
    }

    private static boolean roundTrip(String metric) {
        return metric.contains("round trip");
    }

    /** ZkIon's p50 at most {@code max} times stock's; for a round trip, its p90 too. */
    private static Rule vsStock(double max) {
        return (metric, run) -> ratioRule(run.of(metric, SpiKind.ZKION), run.of(metric, SpiKind.STOCK_ZK), max,
            "stock", roundTrip(metric));
    }

    /** ZkIon's p50 and p90 at most {@code max} times TcpDiscoverySpi's. */
    private static Rule vsTcp(double max) {
        return (metric, run) -> ratioRule(run.of(metric, SpiKind.ZKION), run.of(metric, SpiKind.TCP), max, "TCP", true);
    }

    /** ZkIon's p50 and p90 at most {@code max} times a bound's measured in the same run. */
    private static Rule vsFloor(String bound, double max) {
        return (metric, run) -> ratioRule(run.of(metric, SpiKind.ZKION), run.bounds.get(bound), max,
            "the bare-ZooKeeper floor", true);
    }

    /** ZkIon's p50 at most ZkIon's p50 of {@code message} plus {@code plus} bytes. */
    private static Rule plusMessage(String message, double plus) {
        return (metric, run) -> {
            List<Double> ours = run.of(metric, SpiKind.ZKION);
            List<Double> msg = run.of(message, SpiKind.ZKION);

            if (ours == null || msg == null || ours.isEmpty() || msg.isEmpty())
                return null;

            double limit = percentile(msg, 50) + plus;
            double v = percentile(ours, 50);

            return String.format(Locale.ROOT, "<= the message + %.0f B (%,.0f against %,.0f): %s", plus, v, limit,
                v <= limit ? "met" : "missed");
        };
    }

    private static String ratioRule(List<Double> ours, List<Double> other, double max, String what, boolean p90) {
        if (ours == null || other == null || ours.isEmpty() || other.isEmpty() || percentile(other, 50) <= 0)
            return null;

        double r50 = percentile(ours, 50) / percentile(other, 50);
        double r90 = percentile(ours, 90) / percentile(other, 90);
        boolean met = r50 <= max && (!p90 || r90 <= max);

        return String.format(Locale.ROOT, "<= %.2fx %s (%.2fx%s): %s", max, what, r50,
            p90 ? String.format(Locale.ROOT, ", p90 %.2fx", r90) : "", met ? "met" : "missed");
    }
}
