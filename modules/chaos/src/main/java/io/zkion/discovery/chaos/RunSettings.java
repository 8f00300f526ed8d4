package io.zkion.discovery.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a chaos run is set to, from system properties (the pom passes them), and what it started with. */
final class RunSettings {
    final int faults = Integer.getInteger("zkion.chaos.faults", 8);
    final long seed = Long.getLong("zkion.chaos.seed", 0) != 0 ? Long.getLong("zkion.chaos.seed")
        : System.currentTimeMillis();
    final int servers;
    final int clients;
    final int sessionTimeout = Integer.getInteger("zkion.chaos.sessionTimeout", 6_000);
    /** The log rolls over to a new epoch past this many entries (2^30 in production): here often, under the faults. */
    final long rollLogAt = Long.getLong("zkion.chaos.rollLogAt", 60);
    /**
     * The workload cache's atomicity (zkion.chaos.atomicity). TRANSACTIONAL by default: Ignite 2.17's ATOMIC protocol
     * acknowledged a put that was never applied when a backup was killed under it (docs/tests.md, "Flakes"), which is
     * Ignite's to fix, not discovery's; ATOMIC runs it as the first long runs did.
     */
    final String atomicity = System.getProperty("zkion.chaos.atomicity", "TRANSACTIONAL");
    /** The commit the run tests, as git names it where the run starts (the report names it); "unknown" outside git. */
    final String commit = commit();
    /** Longest wait for the cluster to settle after a fault; past it, the run records a violation and stops. */
    final long recoveryTimeoutMs = Long.getLong("zkion.chaos.recoveryTimeoutMs", 180_000);
    /**
     * The fault kinds to draw from (zkion.chaos.kinds, comma-separated names): by default every kind, the network ones
     * only where hosts of their own can be had (root; zkion.chaos.network=true insists on them, =false leaves them
     * out); fewer to chase one.
     */
    final List<FaultKind> kinds = kinds(System.getProperty("zkion.chaos.kinds", ""), network());
    final String jvmOpens = System.getProperty("zkion.chaos.jvmOpens", "");
    final String classPath = System.getProperty("java.class.path");
    final Path reportDir;
    final Path runDir;
    final String root = "/zkion-chaos";
    String zkConnect;
    /** Hosts of their own for some nodes, or null: every node on loopback. */
    NetLab lab;

    private static List<FaultKind> kinds(String names, boolean network) {
        List<FaultKind> out = new ArrayList<>();

        for (String n : names.split(",")) {
            if (!n.isBlank())
                out.add(FaultKind.valueOf(n.trim()));
        }

        if (out.isEmpty()) {
            for (FaultKind k : FaultKind.values()) {
                if (network || !k.network())
                    out.add(k);
            }
        }

        return out;
    }

    /** @return The nodes' names, as the cluster starts them: s1..sN, then c1..cM. */
    List<String> nodeNames() {
        List<String> names = new ArrayList<>();

        for (int i = 1; i <= servers; i++)
            names.add("s" + i);

        for (int i = 1; i <= clients; i++)
            names.add("c" + i);

        return names;
    }

    /** @return Whether a fault of this run cuts links: then every node runs on a host of its own. */
    boolean cutsLinks() {
        return kinds.stream().anyMatch(FaultKind::network);
    }

    private static boolean network() {
        String v = System.getProperty("zkion.chaos.network", "auto");

        return v.equals("auto") ? NetLab.unavailable() == null : Boolean.parseBoolean(v);
    }

    RunSettings(Path reportDir, Path runDir) {
        this(reportDir, runDir, Integer.getInteger("zkion.chaos.servers", 6), Integer.getInteger("zkion.chaos.clients", 2));
    }

    RunSettings(Path reportDir, Path runDir, int servers, int clients) {
        this.reportDir = reportDir;
        this.runDir = runDir;
        this.servers = servers;
        this.clients = clients;
    }

    private static String commit() {
        try {
            Process p = new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
                .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();

            return p.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
        }
        catch (java.io.IOException e) {
            return "unknown";
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
