package io.zkion.discovery.config;

import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.zk.ServingCheck;

/**
 * What a node says as it starts: one line naming what runs (the release, the Ignite line, the ZooKeeper version, the
 * session timeout granted), and a warning for each setting that will hurt later, said while the operator is looking.
 */
public final class StartReport {
    /**
     * The least session timeout the outage rule is safe with. A server that loses ZooKeeper stops itself a sixth of
     * the timeout later unless the tallier says every server lost it too; under 6 s that is under a second for the
     * reports to cross Ignite's communication, and a GC pause or a slow connect stops every server of an outage.
     */
    public static final long OUTAGE_RULE_FLOOR_MS = 6_000;

    /** Persistent watches, which every node sets, came with ZooKeeper 3.6. */
    private static final int[] PERSISTENT_WATCHES = {3, 6};

    /** The version a server answered {@code srvr} with; null if none said. */
    private final String zkVersion;

    private StartReport(String zkVersion) {
        this.zkVersion = zkVersion;
    }

    /** Asks the ensemble its version: the first server that answers {@code srvr}, each bounded by 500 ms. */
    public static StartReport ask(String zkConnectionString) {
        return new StartReport(ServingCheck.version(zkConnectionString, 500));
    }

    static StartReport of(String zkVersion) {
        return new StartReport(zkVersion);
    }

    /** @return What is wrong with what ZooKeeper answered and granted: one sentence each, saying what to do. */
    public List<String> warnings(long grantedMs) {
        List<String> out = new ArrayList<>();

        if (zkVersion != null && !atLeast(zkVersion, PERSISTENT_WATCHES)) {
            out.add("ZooKeeper " + zkVersion + " is older than 3.6, which brought the persistent watches every node "
                + "sets: discovery fails on it; upgrade the ensemble to 3.6 or later (3.8 is tested)");
        }

        if (grantedMs > 0 && grantedMs < OUTAGE_RULE_FLOOR_MS) {
            out.add("The session timeout is " + grantedMs + " ms: in a ZooKeeper outage each server stops itself "
                + grantedMs / 6 + " ms after losing ZooKeeper unless every server reported losing it too, and under "
                + OUTAGE_RULE_FLOOR_MS + " ms a GC pause or a slow connection between servers can stop them all; set "
                + "sessionTimeout to " + OUTAGE_RULE_FLOOR_MS + " ms or more (and the servers' maxSessionTimeout)");
        }

        return out;
    }

    /** @return The start line's middle: what runs, against which ZooKeeper, with which session timeout. */
    public String describe(long askedMs, long grantedMs) {
        return "release=" + BuildInfo.release() + ", ignite=" + BuildInfo.igniteLine() + ", zookeeper="
            + (zkVersion == null ? "unknown (no server answered srvr)" : zkVersion) + ", sessionTimeout=" + grantedMs
            + " ms" + (grantedMs == askedMs ? "" : " (granted; asked " + askedMs + ")");
    }

    /** @return Whether {@code version} (such as {@code 3.8.4}) is at least {@code min} (major, minor). */
    static boolean atLeast(String version, int[] min) {
        String[] p = version.split("\\.");

        try {
            int major = Integer.parseInt(p[0]);
            int minor = p.length > 1 ? Integer.parseInt(p[1]) : 0;

            return major != min[0] ? major > min[0] : minor >= min[1];
        }
        catch (NumberFormatException e) {
            return true; // Not a version this reads: no warning on a guess.
        }
    }
}
