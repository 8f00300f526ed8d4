package io.zkion.discovery.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.tools.Json;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/** {@code <name>.json} (one object per shape), {@code <name>.md} (the table) and charts against member count. */
final class ScaleReport {
    /** The table's columns: key, heading. */
    private static final String[][] COLUMNS = {
        {"members", "members"}, {"clients", "clients"},
        {"joinStormMs", "join storm ms"}, {"joinStormFloorMs", "floor ms"},
        {"oneJoinMs", "one join ms"},
        {"customP50Ms", "custom p50"}, {"customP99Ms", "custom p99"}, {"customFloorP99Ms", "floor p99"},
        {"ackedCustomP99Ms", "acked p99"},
        {"coordinatorFailoverMs", "crd failure ms"}, {"massFailureMs", "10 % failure ms"},
        {"zkWritesPerCustom", "writes/custom"}, {"zkBytesPerCustomPerMember", "B/custom/member"},
        {"zkWatches", "watches"}, {"coordinatorCpuMsPerEvent", "crd CPU ms/event"},
        {"leaderStopTopologyChanges", "leader stop: topology changes"},
    };

    /** Charts: key, title, log scale. */
    private static final String[][] CHARTS = {
        {"joinStormMs,joinStormFloorMs", "Join storm (ms)", "log"},
        {"customP99Ms,customFloorP99Ms,ackedCustomP99Ms", "Custom message p99 (ms)", "log"},
        {"zkBytesPerCustomPerMember", "ZooKeeper bytes per custom message per member", "lin"},
        {"coordinatorFailoverMs,massFailureMs", "Failure detection (ms)", "lin"},
    };

    private final Path dir;
    private final String name;

    ScaleReport(Path dir, String name) {
        this.dir = dir;
        this.name = name;
    }

    void write(List<Map<String, Object>> results) throws IOException {
        Files.write(dir.resolve(name + ".json"), json(results).getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve(name + ".md"), markdown(results).getBytes(StandardCharsets.UTF_8));

        for (String[] c : CHARTS)
            chart(results, c[0].split(","), c[1], c[2].equals("log"));
    }

    static String json(List<Map<String, Object>> results) {
        StringBuilder sb = new StringBuilder("[\n");

        for (int i = 0; i < results.size(); i++) {
            sb.append(i == 0 ? "" : ",\n");
            value(sb, results.get(i), "  ");
        }

        return sb.append("\n]\n").toString();
    }

    private static void value(StringBuilder sb, Object v, String indent) {
        if (v instanceof Map) {
            sb.append(indent.length() > 2 ? "{" : indent + "{");

            boolean first = true;

            for (Map.Entry<?, ?> e : ((Map<?, ?>)v).entrySet()) {
                sb.append(first ? "\n" : ",\n").append(indent).append("  ").append(Json.string(e.getKey().toString()))
                    .append(": ");
                value(sb, e.getValue(), indent + "  ");
                first = false;
            }

            sb.append('\n').append(indent).append('}');
        }
        else if (v == null || v instanceof Number || v instanceof Boolean)
            sb.append(v instanceof Double && ((Double)v) % 1 == 0 ? Long.toString(((Double)v).longValue()) : v);
        else
            sb.append(Json.string(v.toString()));
    }

    private static String markdown(List<Map<String, Object>> results) {
        StringBuilder sb = new StringBuilder("# Scale run\n\n");

        sb.append("Written ").append(Instant.now()).append(" by `benchmarks/run scale`; every figure in ms unless "
            + "named otherwise; the floors are bare Curator clients in the same run (see docs/benchmarks.md).\n\n|");

        for (String[] c : COLUMNS)
            sb.append(' ').append(c[1]).append(" |");

        sb.append("\n|");

        for (int i = 0; i < COLUMNS.length; i++)
            sb.append(" ---: |");

        for (Map<String, Object> r : results) {
            sb.append("\n|");

            for (String[] c : COLUMNS)
                sb.append(' ').append(r.get(c[0]) == null ? "n/a" : r.get(c[0])).append(" |");
        }

        sb.append("\n\nJVMs per shape (members each): ");

        for (Map<String, Object> r : results)
            sb.append("\n- ").append(r.get("members")).append(": ").append(r.get("jvms"));

        return sb.append('\n').toString();
    }

    private void chart(List<Map<String, Object>> results, String[] keys, String title, boolean log) throws IOException {
        XYChart c = new XYChartBuilder().width(800).height(450).title(title).xAxisTitle("members").build();

        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(log);

        for (String k : keys) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();

            for (Map<String, Object> r : results) {
                Object v = r.get(k);

                if (v instanceof Number && ((Number)v).doubleValue() > 0 && Integer.valueOf(0).equals(r.get("clients"))) {
                    x.add(((Number)r.get("members")).doubleValue());
                    y.add(((Number)v).doubleValue());
                }
            }

            if (!x.isEmpty())
                c.addSeries(k, x, y);
        }

        if (!c.getSeriesMap().isEmpty())
            BitmapEncoder.saveBitmap(c, dir.resolve(name + "-" + keys[0] + ".png").toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }
}
