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
    /** The tables: a title, then each column's key and heading. */
    private static final String[][][] TABLES = {
        {{"Joins and custom messages (ms; each floor is bare Curator clients in the same run)"},
            {"members", "members"}, {"clients", "clients"},
            {"joinStormMs", "join storm"}, {"joinStormFloorMs", "floor"},
            {"stormCpuMsPerMember", "storm CPU ms per member"}, {"stormCoordinatorCpuMs", "of the coordinator"},
            {"stormZkServersCpuMs", "of the 3 servers"}, {"oneJoinMs", "one more join"},
            {"customP50Ms", "custom p50"}, {"customP99Ms", "custom p99"}, {"customFloorP50Ms", "floor p50"},
            {"customFloorP99Ms", "floor p99"}, {"ackedCustomP99Ms", "acked p99"},
            {"ackedCustomFloorP99Ms", "its floor"},
            {"coordinatorCpuMsPerEvent", "coordinator CPU ms/event"}},
        {{"Failures and outages (ms; ZooKeeper's own part is the kill until the ensemble deleted the alive znode)"},
            {"members", "members"}, {"clients", "clients"},
            {"coordinatorFailoverMs", "coordinator kill -9"}, {"coordinatorExpiryMs", "of it ZooKeeper's"},
            {"massFailureCount", "killed at once"}, {"massFailureMs", "their kill -9"},
            {"massExpiryMs", "of it ZooKeeper's (first)"},
            {"massLastExpiryMs", "(last)"}, {"leaderStopKept", "members kept through a leader stop"},
            {"outageKept", "members kept through a quorum outage"},
            {"slowOutageKept", "and when a tenth are paused as it begins"}, {"slowOutageSlowMs", "paused for"},
            {"pausedLogLength", "log length, one paused"},
            {"pausedFailedMs", "paused one failed after"}},
        {{"ZooKeeper per plain custom message (over a stream of 2 x max(128, N), its acks and trims included), and at"
            + " rest"},
            {"members", "members"}, {"clients", "clients"}, {"plainStream", "stream"},
            {"zkWritesPerCustom", "writes"}, {"zkRequestsPerCustom", "requests"},
            {"zkBytesPerCustomPerMember", "bytes out per member"}, {"customEntryBytes", "the entry's bytes"},
            {"zkWatches", "data watches"}, {"zkWatchesPerMember", "per member"},
            {"zkWatchRegistrations", "in both tables"},
            {"stormZkRequests", "join storm: requests"}, {"stormZkMBytesOut", "join storm: MB out"},
            {"idleZkRequestsPerSec", "at rest: requests/s"}, {"idleZkWritesPerSec", "at rest: writes/s"}},
    };

    /** Charts: key, title, log scale. */
    private static final String[][] CHARTS = {
        {"joinStormMs,joinStormFloorMs", "Join storm (ms)", "log"},
        {"customP99Ms,customFloorP99Ms,ackedCustomP99Ms,ackedCustomFloorP99Ms", "Custom message p99 (ms)", "log"},
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

    /** @return The figures of {@code r}, without its nested counters and lists: a progress line. */
    static String flat(Map<String, Object> r) {
        StringBuilder sb = new StringBuilder();

        r.forEach((k, v) -> {
            if (!(v instanceof Map || v instanceof List))
                sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v);
        });

        return sb.toString();
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
        else if (v instanceof List) {
            // On one line: a list of figures, one per message.
            sb.append('[');

            for (int i = 0; i < ((List<?>)v).size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                value(sb, ((List<?>)v).get(i), indent + "  ");
            }

            sb.append(']');
        }
        else if (v == null || v instanceof Number || v instanceof Boolean)
            sb.append(v instanceof Double && ((Double)v) % 1 == 0 ? Long.toString(((Double)v).longValue()) : v);
        else
            sb.append(Json.string(v.toString()));
    }

    private static String markdown(List<Map<String, Object>> results) {
        StringBuilder sb = new StringBuilder("# Scale run\n\nWritten ").append(Instant.now())
            .append(" by `benchmarks/run scale`; how it runs is in docs/benchmarks.md, \"Scale\".\n");

        for (String[][] t : TABLES) {
            sb.append("\n").append(t[0][0]).append(":\n\n|");

            for (int i = 1; i < t.length; i++)
                sb.append(' ').append(t[i][1]).append(" |");

            sb.append("\n|");

            for (int i = 1; i < t.length; i++)
                sb.append(" ---: |");

            for (Map<String, Object> r : results) {
                sb.append("\n|");

                for (int i = 1; i < t.length; i++)
                    sb.append(' ').append(r.get(t[i][0]) == null ? "n/a" : r.get(t[i][0])).append(" |");
            }

            sb.append('\n');
        }

        sb.append("\nJVMs per shape (members each), session timeout, who decodes a node (each member, or each JVM once:"
            + " `DECODE_ONCE`), the member JVMs' JIT (`MEMBER_JIT`: C1 only, or tiered up to C2), and the commit run:");

        for (Map<String, Object> r : results) {
            sb.append("\n- ").append(r.get("members")).append(": ").append(r.get("jvms")).append("; ")
                .append(r.get("sessionTimeoutMs")).append(" ms; ")
                .append(Boolean.TRUE.equals(r.get("decodeOncePerJvm")) ? "once per JVM" : "each member")
                // Runs before the setting all had C1 only.
                .append("; JIT ").append(r.getOrDefault("memberJit", "c1"))
                .append(r.get("commit") == null ? "" : "; " + r.get("commit"));
        }

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
