package io.zkion.discovery.chaos;

import io.zkion.discovery.tools.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The run's report, as JSON and as markdown: faults by kind, recovery time per kind, violations, incidents. */
final class ChaosReport {
    final RunSettings settings;
    final List<Fault> faults;
    final List<Violation> violations;
    final List<String> unplannedExits;
    final Map<String, Long> totals;
    final long startedAt;
    final long durationMs;

    ChaosReport(RunSettings settings, List<Fault> faults, List<Violation> violations, List<String> unplannedExits,
        Map<String, Long> totals, long startedAt, long durationMs) {
        this.settings = settings;
        this.faults = faults;
        this.violations = violations;
        this.unplannedExits = unplannedExits;
        this.totals = totals;
        this.startedAt = startedAt;
        this.durationMs = durationMs;
    }

    /** Writes {@code <base>.json} and {@code <base>.md} into the report directory. */
    void write(String base) throws IOException {
        Files.createDirectories(settings.reportDir);
        Files.write(settings.reportDir.resolve(base + ".json"), json().getBytes(StandardCharsets.UTF_8));
        Files.write(settings.reportDir.resolve(base + ".md"), markdown().getBytes(StandardCharsets.UTF_8));
    }

    private Map<FaultKind, List<Long>> recoveries() {
        Map<FaultKind, List<Long>> byKind = new EnumMap<>(FaultKind.class);

        for (FaultKind k : FaultKind.values())
            byKind.put(k, new ArrayList<>());

        for (Fault f : faults) {
            if (f.recoveryMs >= 0)
                byKind.get(f.kind).add(f.recoveryMs);
        }

        return byKind;
    }

    private long count(FaultKind k) {
        return faults.stream().filter(f -> f.kind == k).count();
    }

    String json() {
        StringBuilder sb = new StringBuilder("{\n");

        sb.append("  \"startedAt\": ").append(startedAt).append(",\n");
        sb.append("  \"durationMs\": ").append(durationMs).append(",\n");
        sb.append("  \"settings\": {\"faults\": ").append(settings.faults).append(", \"seed\": ").append(settings.seed)
            .append(", \"servers\": ").append(settings.servers).append(", \"clients\": ").append(settings.clients)
            .append(", \"zookeeperServers\": ").append(ZkEnsemble.SIZE).append(", \"sessionTimeoutMs\": ")
            .append(settings.sessionTimeout).append(", \"rollLogAt\": ").append(settings.rollLogAt)
            .append(", \"kinds\": \"").append(settings.kinds).append("\", \"atomicity\": \"").append(settings.atomicity)
            .append("\", \"commit\": \"").append(settings.commit).append("\", \"recoveryTimeoutMs\": ")
            .append(settings.recoveryTimeoutMs).append(", \"orphanRemedyAfterMs\": ").append(OrphanRemedy.AFTER_MS)
            .append("},\n");
        sb.append("  \"faultsInjected\": ").append(faults.size()).append(",\n");
        sb.append("  \"faultsByKind\": {");

        Map<FaultKind, List<Long>> rec = recoveries();
        String sep = "";

        for (FaultKind k : FaultKind.values()) {
            List<Long> r = rec.get(k);

            sb.append(sep).append("\n    \"").append(k).append("\": {\"count\": ").append(count(k))
                .append(", \"recovered\": ").append(r.size()).append(", \"recoveryP50Ms\": ")
                .append(Percentiles.of(r, 50)).append(", \"recoveryP99Ms\": ").append(Percentiles.of(r, 99))
                .append(", \"recoveryMaxMs\": ").append(Percentiles.of(r, 100)).append('}');
            sep = ",";
        }

        sb.append("\n  },\n  \"totals\": {");
        sep = "";

        for (Map.Entry<String, Long> t : totals.entrySet()) {
            sb.append(sep).append('"').append(t.getKey()).append("\": ").append(t.getValue());
            sep = ", ";
        }

        sb.append("},\n  \"violations\": [");
        sep = "";

        for (Violation v : violations) {
            sb.append(sep).append("\n    {\"afterFault\": ").append(v.fault).append(", \"check\": ").append(str(v.check))
                .append(", \"detail\": ").append(str(v.detail)).append('}');
            sep = ",";
        }

        sb.append("\n  ],\n  \"unplannedExits\": [");
        sep = "";

        for (String e : unplannedExits) {
            sb.append(sep).append("\n    ").append(str(e));
            sep = ",";
        }

        sb.append("\n  ],\n  \"faults\": [");
        sep = "";

        for (Fault f : faults) {
            sb.append(sep).append("\n    {\"index\": ").append(f.index).append(", \"kind\": \"").append(f.kind)
                .append("\", \"target\": ").append(str(f.target)).append(", \"injectedAt\": ").append(f.injectedAt)
                .append(", \"recoveryMs\": ").append(f.recoveryMs).append(", \"note\": ").append(str(f.fullNote()))
                .append('}');
            sep = ",";
        }

        return sb.append("\n  ]\n}\n").toString();
    }

    String markdown() {
        StringBuilder sb = new StringBuilder("# Chaos run\n\n");

        sb.append(String.format("%d faults on %d servers and %d clients (separate JVMs) over a ZooKeeper ensemble of %d "
                + "processes; session timeout %d ms; the log rolls over past %d entries; seed %d; workload cache %s; "
                + "commit %s; %.1f minutes in all.%n%n",
            faults.size(), settings.servers, settings.clients, ZkEnsemble.SIZE, settings.sessionTimeout,
            settings.rollLogAt, settings.seed, settings.atomicity, settings.commit, durationMs / 60_000.0));
        sb.append("**Violations: ").append(violations.size()).append("** (target 0).\n\n");

        long orphans = totals.getOrDefault(ChaosRun.ORPHANS_MET, 0L);

        if (orphans > 0)
            sb.append("**Ignite 2.17's orphaned transaction was met ").append(orphans).append(" time(s)** and rolled "
                + "back through Ignite's TransactionsMXBean, by the run's look after each fault settled or once the "
                + "cluster had not settled for " + OrphanRemedy.AFTER_MS / 1000 + " s (docs/operations.md, "
                + "\"Transactions of a failed client\"); left, each holds its keys' locks, and every later exchange, "
                + "for good. The faults' notes name the transactions.\n\n");
        sb.append("Recovery: from the fault (for a pause, from SIGCONT) until every node runs again and reports one "
            + "topology version with all servers and clients in it, every partition has both owners, and every "
            + "ZooKeeper server serves. Killed and segmented nodes are restarted at once.\n\n");
        sb.append("| fault | count | recovered | recovery p50 | recovery p99 | max |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");

        Map<FaultKind, List<Long>> rec = recoveries();

        for (FaultKind k : FaultKind.values()) {
            List<Long> r = rec.get(k);

            sb.append("| ").append(k.name().toLowerCase().replace('_', ' ')).append(" | ").append(count(k)).append(" | ")
                .append(r.size()).append(" | ").append(ms(Percentiles.of(r, 50))).append(" | ")
                .append(ms(Percentiles.of(r, 99))).append(" | ").append(ms(Percentiles.of(r, 100))).append(" |\n");
        }

        sb.append("\n| total | value |\n| --- | ---: |\n");

        for (Map.Entry<String, Long> t : totals.entrySet())
            sb.append("| ").append(t.getKey()).append(" | ").append(t.getValue()).append(" |\n");

        sb.append("\n## Violations\n\n");

        if (violations.isEmpty())
            sb.append("None.\n");

        for (Violation v : violations)
            sb.append("* after fault ").append(v.fault).append(", ").append(v.check).append(": ").append(v.detail).append('\n');

        sb.append("\n## Nodes that exited with no fault aimed at them\n\n");

        if (unplannedExits.isEmpty())
            sb.append("None.\n");

        for (String e : unplannedExits)
            sb.append("* ").append(e).append('\n');

        sb.append("\n## Faults\n\n| # | kind | target | recovery | note |\n| ---: | --- | --- | ---: | --- |\n");

        for (Fault f : faults)
            sb.append("| ").append(f.index).append(" | ").append(f.kind).append(" | ").append(f.target).append(" | ")
                .append(ms(f.recoveryMs)).append(" | ").append(f.fullNote()).append(" |\n");

        return sb.toString();
    }

    private static String ms(long v) {
        return v < 0 ? "n/a" : String.format("%.1f s", v / 1000.0);
    }

    private static String str(String s) {
        return Json.string(s);
    }
}
