package io.zkion.discovery.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The testbed run's report: one row per scenario with its result and figures, written as
 * {@code testbed-<date>.md} and {@code .json} under the report folder after every scenario, so that a run cut short
 * still leaves what it measured.
 */
final class ScenarioReport {
    private final Path dir;

    private final String name;

    private final List<Row> rows = new ArrayList<>();

    private final String started = Instant.now().toString();

    ScenarioReport(Path dir) {
        this.dir = dir;
        this.name = "testbed-" + LocalDate.now(ZoneOffset.UTC);
    }

    /** A scenario's row; its figures are filled in while it runs. */
    synchronized Row row(String scenario, String what) {
        Row r = new Row(scenario, what);
        rows.add(r);
        return r;
    }

    /**
     * Writes the report. Rows of scenarios this run did not run are kept from the day's earlier report, so that one
     * scenario can be run again alone ({@code -Dtest=TestbedScenariosTest#d*}) and the report stays whole.
     */
    synchronized void write() throws IOException {
        Files.createDirectories(dir);
        List<String> earlierMd = new ArrayList<>();
        List<String> earlierJson = new ArrayList<>();
        Path md0 = dir.resolve(name + ".md");
        Path json0 = dir.resolve(name + ".json");
        if (Files.isRegularFile(md0) && Files.isRegularFile(json0)) {
            for (String l : Files.readAllLines(md0, StandardCharsets.UTF_8)) {
                if (l.matches("\\| [a-z] \\| .*") && !ran(l.substring(2, 3)))
                    earlierMd.add(l);
                else if (l.matches("\\*\\*[a-z]\\*\\* [a-z ]+: .*") && !ran(l.substring(2, 3)))
                    earlierMd.add("\n" + l);
            }
            for (String l : Files.readAllLines(json0, StandardCharsets.UTF_8)) {
                if (l.startsWith("  {\"scenario\":\"") && !ran(l.substring(15, 16)))
                    earlierJson.add(l.endsWith(",") ? l.substring(0, l.length() - 1) : l);
            }
        }
        StringBuilder md = new StringBuilder("# Testbed run\n\nStarted " + started + " by `mvn -B verify -Pdocker` "
            + "(docker/testbed on this machine's engine; README, \"Docker testbed\"); a scenario run again alone replaces its row. Session timeout "
            + Testbed.SESSION_TIMEOUT_MS / 1000 + " s, 3 ZooKeeper servers, 3 Ignite servers, 1 client.\n\n"
            + "| scenario | what | result | seconds | figures |\n| --- | --- | --- | ---: | --- |\n");
        java.util.TreeMap<String, String> mdRows = new java.util.TreeMap<>();
        java.util.TreeMap<String, String> jsonRows = new java.util.TreeMap<>();
        StringBuilder notes = new StringBuilder();
        for (String l : earlierMd) {
            if (l.startsWith("\n"))
                notes.append(l).append('\n');
            else
                mdRows.put(l.substring(2, 3), l + "\n");
        }
        for (String l : earlierJson)
            jsonRows.put(l.substring(15, 16), l);
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            StringBuilder figs = new StringBuilder();
            StringBuilder jf = new StringBuilder();
            r.figures.forEach((k, v) -> {
                figs.append(figs.length() == 0 ? "" : "; ").append(k).append(' ').append(v);
                jf.append(jf.length() == 0 ? "" : ",").append(quote(k)).append(':')
                    .append(v instanceof Number ? v.toString() : quote(String.valueOf(v)));
            });
            mdRows.put(r.scenario, "| " + r.scenario + " | " + r.what + " | " + r.result + " | "
                + String.format("%.1f", r.seconds) + " | " + figs + " |\n");
            jsonRows.put(r.scenario, "  {\"scenario\":" + quote(r.scenario) + ",\"what\":" + quote(r.what)
                + ",\"result\":" + quote(r.result) + ",\"seconds\":" + String.format("%.1f", r.seconds)
                + ",\"figures\":{" + jf + "}}");
            if (r.failure != null)
                notes.append("\n**").append(r.scenario).append("** ").append(r.result).append(": ")
                    .append(r.failure.replace("\n", " ")).append('\n');
        }
        mdRows.values().forEach(md::append);
        md.append(notes);
        StringBuilder json = new StringBuilder("[\n").append(String.join(",\n", jsonRows.values())).append("\n]\n");
        Files.write(dir.resolve(name + ".md"), md.toString().getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve(name + ".json"), json.toString().getBytes(StandardCharsets.UTF_8));
    }

    private boolean ran(String scenario) {
        return rows.stream().anyMatch(r -> r.scenario.equals(scenario));
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ") + '"';
    }

    /** One scenario. */
    static final class Row {
        final String scenario;
        final String what;
        final Map<String, Object> figures = new LinkedHashMap<>();
        String result = "not run";
        double seconds;
        String failure;

        Row(String scenario, String what) {
            this.scenario = scenario;
            this.what = what;
        }

        Row put(String figure, Object value) {
            figures.put(figure, value);
            return this;
        }
    }
}
