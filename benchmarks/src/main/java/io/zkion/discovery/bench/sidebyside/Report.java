package io.zkion.discovery.bench.sidebyside;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/** JSON, a markdown table with ratios to the stock SPI, and one PNG chart per metric. */
final class Report {
    private final Map<String, Map<SpiKind, List<Double>>> results;
    private final Map<String, List<Double>> bounds;
    private final Map<String, String> lastWrites;
    private final int rounds;
    private final int largeConfigBytes;

    Report(Map<String, Map<SpiKind, List<Double>>> results, Map<String, List<Double>> bounds,
        Map<String, String> lastWrites, int rounds, int largeConfigBytes) {
        this.results = results;
        this.bounds = bounds;
        this.lastWrites = lastWrites;
        this.rounds = rounds;
        this.largeConfigBytes = largeConfigBytes;
    }

    void write(Path dir) throws Exception {
        Files.write(dir.resolve("side-by-side.json"), SideBySide.utf8(json()));
        Files.write(dir.resolve("side-by-side.md"), SideBySide.utf8(markdown()));
        Files.write(dir.resolve("side-by-side.settings"), SideBySide.utf8(settings()));

        for (String metric : results.keySet()) {
            try {
                chart(metric, dir.resolve("side-by-side-" + slug(metric) + ".png"));
            }
            catch (RuntimeException e) {
                // One chart xchart cannot draw must not cost the report: its figures are in the table and the JSON.
                System.out.println("No chart of \"" + metric + "\": " + e);
            }
        }
    }

    static double percentile(List<Double> vs, double p) {
        List<Double> s = new ArrayList<>(vs);

        Collections.sort(s);

        return s.isEmpty() ? Double.NaN : s.get(Math.min(s.size() - 1, (int)Math.ceil(p / 100 * s.size()) - 1 < 0 ? 0
            : (int)Math.ceil(p / 100 * s.size()) - 1));
    }

    private String json() {
        StringBuilder sb = new StringBuilder("{\n  \"rounds\": ").append(rounds).append(",\n  \"bounds\": {");
        boolean firstBound = true;

        for (Map.Entry<String, List<Double>> f : bounds.entrySet()) {
            List<Double> v = f.getValue();

            sb.append(firstBound ? "" : ", ").append('"').append(f.getKey()).append("\": {\"n\": ").append(v.size())
                .append(", \"p50\": ").append(num(percentile(v, 50))).append(", \"p90\": ").append(num(percentile(v, 90)))
                .append('}');
            firstBound = false;
        }

        sb.append("},\n  \"metrics\": {\n");
        boolean firstMetric = true;

        for (Map.Entry<String, Map<SpiKind, List<Double>>> m : results.entrySet()) {
            sb.append(firstMetric ? "" : ",\n").append("    \"").append(m.getKey()).append("\": {");
            firstMetric = false;

            boolean first = true;

            for (Map.Entry<SpiKind, List<Double>> e : m.getValue().entrySet()) {
                List<Double> v = e.getValue();

                sb.append(first ? "" : ", ").append('"').append(e.getKey()).append("\": {\"n\": ").append(v.size())
                    .append(", \"p50\": ").append(num(percentile(v, 50))).append(", \"p90\": ").append(num(percentile(v, 90)))
                    .append(", \"p99\": ").append(num(percentile(v, 99))).append(", \"min\": ").append(num(percentile(v, 0)))
                    .append(", \"max\": ").append(num(percentile(v, 100)));

                // The samples of whole-scenario metrics (one per round), so that charts can be drawn again later.
                if (!m.getKey().contains("round trip")) {
                    sb.append(", \"samples\": [");

                    for (int i = 0; i < v.size(); i++)
                        sb.append(i == 0 ? "" : ", ").append(num(v.get(i)));

                    sb.append(']');
                }

                sb.append('}');
                first = false;
            }

            sb.append('}');
        }

        return sb.append("\n  }\n}\n").toString();
    }

    /** What the figures were measured with: machine, JVM and its flags, Ignite, ZooKeeper, rounds, time. */
    private String settings() {
        java.lang.management.RuntimeMXBean rt = java.lang.management.ManagementFactory.getRuntimeMXBean();

        return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, "
            + ((com.sun.management.OperatingSystemMXBean)java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getTotalPhysicalMemorySize() / (1L << 30) + " GiB; " + rt.getVmName() + ' ' + rt.getVmVersion() + '\n'
            + "JVM flags: " + String.join(" ", rt.getInputArguments()) + '\n'
            + "Ignite " + org.apache.ignite.internal.IgniteVersionUtils.VER_STR + ", ZooKeeper server "
            + org.apache.zookeeper.Version.getFullVersion() + " (curator-test TestingServer, in the same JVM)\n"
            + "Rounds: " + rounds + " after an unmeasured warm-up of each SPI (3 servers started, "
            + SideBySide.WARMUP_EVENTS + " events), SPIs alternating; timeouts " + BenchCluster.TIMEOUT + " ms; round trips: "
            + SideBySide.WARMUP_EVENTS + " warm-up events, then 500 (3 servers), 200 (8 servers) and "
            + SideBySide.EVENTS_16 + " (16 servers)\n"
            + "Written: " + java.time.Instant.now() + '\n';
    }

    private String markdown() {
        StringBuilder sb = new StringBuilder("# ZkIon vs stock ZooKeeper SPI vs TcpDiscoverySpi\n\n")
            .append("Same JVM, Ignite 2.17.0, one curator-test ZooKeeper server, session/failure timeout ")
            .append(BenchCluster.TIMEOUT).append(" ms, ").append(rounds)
            .append(" rounds with the SPIs alternating, after an unmeasured warm-up of each. p50 / p90 / p99 over all samples (one sample per round for")
            .append(" whole-scenario figures, one per event for round trips); ratio = ZkIon p50 / stock p50, and p90 / p90")
            .append(" for round trips. Each target is issue 23's, with its ratio (to the stock SPI, to TcpDiscoverySpi or to the bare-"
                + "ZooKeeper floor of the same run). Round trips are measured after ").append(SideBySide.WARMUP_EVENTS)
            .append(" unmeasured events. The large join's ").append(SideBySide.LARGE_CACHES).append(" cache configurations are ")
            .append(String.format(Locale.ROOT, "%,d", largeConfigBytes)).append(" bytes under Java serialization.\n\n")
            .append("| metric | ZkIon p50 / p90 / p99 | stock ZK p50 / p90 / p99 | TCP p50 / p90 / p99 | ZkIon / stock | target |\n")
            .append("| --- | ---: | ---: | ---: | ---: | --- |\n");

        for (Map.Entry<String, Map<SpiKind, List<Double>>> m : results.entrySet()) {
            sb.append("| ").append(m.getKey());

            for (SpiKind k : SpiKind.values()) {
                List<Double> v = m.getValue().get(k);

                sb.append(" | ").append(v == null ? "n/a" : fmt(percentile(v, 50)) + " / " + fmt(percentile(v, 90))
                    + " / " + fmt(percentile(v, 99)));
            }

            List<Double> ours = m.getValue().get(SpiKind.ZKION);
            List<Double> stock = m.getValue().get(SpiKind.STOCK_ZK);

            boolean roundTrip = m.getKey().contains("round trip");
            String ratio = ours == null || stock == null || percentile(stock, 50) == 0 ? "n/a"
                : String.format(Locale.ROOT, "%.2fx", percentile(ours, 50) / percentile(stock, 50))
                + (roundTrip ? String.format(Locale.ROOT, " (p90 %.2fx)", percentile(ours, 90) / percentile(stock, 90)) : "");
            String verdict = Targets.verdict(m.getKey(), new Targets.Run(results, bounds));

            sb.append(" | ").append(ratio).append(" | ").append(verdict).append(" |\n");
        }

        sb.append("\nWhat bounds the targets, whatever the SPI, measured in the same run (bare Curator clients write")
            .append(" 400-byte nodes; their reader learns of each through a recursive watch, as ZkIon does):\n\n")
            .append("| measure | p50 | p90 |\n| --- | ---: | ---: |\n");

        for (Map.Entry<String, List<Double>> f : bounds.entrySet()) {
            sb.append("| ").append(f.getKey()).append(" | ").append(fmt(percentile(f.getValue(), 50))).append(" | ")
                .append(fmt(percentile(f.getValue(), 90))).append(" |\n");
        }

        return sb.append(new TargetBounds(new Targets.Run(results, bounds), lastWrites).markdown()).toString();
    }

    /**
     * One chart per metric, in the metric's own unit. Round trips have a sample per event: their percentiles. Every
     * other metric has one sample per round: each round as a point, since percentiles of ten samples say little.
     * TCP is far below the ZooKeeper SPIs on most metrics: where the values span more than 20x, the axis is
     * logarithmic, so that the two ZooKeeper SPIs stay comparable.
     */
    private void chart(String metric, Path file) throws Exception {
        Map<SpiKind, List<Double>> bySpi = results.get(metric);
        String unit = unit(metric);
        boolean perEvent = metric.contains("round trip");
        Chart<?, ?> chart;

        if (perEvent) {
            CategoryChart c = new CategoryChartBuilder().width(800).height(450).title(metric).xAxisTitle("percentile")
                .yAxisTitle(unit).build();
            List<String> xs = List.of("p50", "p90", "p99");
            List<List<Double>> plotted = new ArrayList<>();

            for (Map.Entry<SpiKind, List<Double>> e : bySpi.entrySet()) {
                List<Double> v = e.getValue();

                if (v.isEmpty())
                    continue; // Not measured for this SPI.

                List<Double> ps = List.of(percentile(v, 50), percentile(v, 90), percentile(v, 99));

                c.addSeries(e.getKey().name(), xs, ps);
                plotted.add(ps);
            }

            boolean log = wideSpread(plotted);

            c.getStyler().setYAxisLogarithmic(log);

            // Bars start at zero, which a logarithmic axis cannot show: XChart refuses to draw them. Lines it can.
            if (log)
                c.getStyler().setDefaultSeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);

            chart = c;
        }
        else {
            XYChart c = new XYChartBuilder().width(800).height(450).title(metric).xAxisTitle("round").yAxisTitle(unit)
                .build();

            List<List<Double>> plotted = new ArrayList<>();

            for (Map.Entry<SpiKind, List<Double>> e : bySpi.entrySet()) {
                List<Double> v = e.getValue();
                List<Integer> rounds = new ArrayList<>();

                if (v.isEmpty())
                    continue; // Not measured for this SPI.

                for (int i = 1; i <= v.size(); i++)
                    rounds.add(i);

                c.addSeries(e.getKey().name(), rounds, v);
                plotted.add(v);
            }

            c.getStyler().setYAxisLogarithmic(wideSpread(plotted));
            chart = c;
        }

        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** @return The unit the metric's name ends with, in parentheses: ms, bytes, count. */
    static String unit(String metric) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(([^()]+)\\)\\s*$").matcher(metric);

        return m.find() ? m.group(1) : "value";
    }

    /**
     * @return Whether the values plotted are all positive and span more than 20x: then a linear axis flattens the
     *      smaller SPIs. A zero or a missing value (a percentile of nothing) keeps the axis linear: a log axis cannot
     *      show it.
     */
    static boolean wideSpread(List<List<Double>> plotted) {
        double min = Double.MAX_VALUE;
        double max = 0;

        for (List<Double> v : plotted) {
            for (double d : v) {
                if (!(d > 0) || Double.isInfinite(d))
                    return false;

                min = Math.min(min, d);
                max = Math.max(max, d);
            }
        }

        return max > 20 * min;
    }

    private static String slug(String metric) {
        return metric.toLowerCase(Locale.ROOT).replaceAll("\\(.*?\\)", "").replaceAll("[^a-z0-9]+", "-")
            .replaceAll("(^-|-$)", "");
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "null" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String fmt(double d) {
        return Double.isNaN(d) ? "n/a" : d >= 1000 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
