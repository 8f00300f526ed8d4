package io.zkion.discovery.chaos;

import java.util.List;

/**
 * The faults that cut links between hosts ({@link NetLab}): a node cut from ZooKeeper alone, and two servers cut from
 * each other while both keep ZooKeeper. Each waits for the cluster to be rid of the node the cut condemns, then heals
 * the cut, so that the node comes back as a new one; a cut that condemns nobody in time is a violation.
 */
final class NetworkFaults {
    /** How long the cluster gets to be rid of a node cut from ZooKeeper: the session, its expiry's tick, a margin. */
    private final long outMs;
    /** How long a split between two servers may take to a verdict: the wait for the peer, the round, a margin. */
    private final long verdictMs;

    /** A slow link: a few times what a node here sends and receives at rest, with loss that TCP makes up for. */
    static final int SLOW_KBIT = 256;
    static final int SLOW_QUEUE_MS = 400;
    static final int SLOW_LOSS_PERCENT = 5;
    /** A very slow one: a quarter of the rate, twice the loss. */
    static final int VERY_SLOW_KBIT = 64;
    static final int VERY_SLOW_LOSS_PERCENT = 10;
    /** How long a server segmented on a slow link may take to exit (one took 16 s after Ignite stopped). */
    static final long SEGMENTED_EXIT_MS = 30_000;

    private final Cluster cluster;
    private final RunSettings settings;
    private final List<Violation> violations;

    NetworkFaults(Cluster cluster, RunSettings settings, List<Violation> violations) {
        this.cluster = cluster;
        this.settings = settings;
        this.violations = violations;
        this.outMs = 3L * settings.sessionTimeout + 15_000;
        // The call waits a session and 1 s for the peer, the round's bound is 15 s and a session; Ignite reports
        // only once a reconnect timed out (its failure detection timeout, the session here).
        this.verdictMs = 4L * settings.sessionTimeout + 16_000 + 30_000;
    }

    /**
     * Node {@code n} loses ZooKeeper alone. A server is segmented and exits; a client keeps its process until the
     * servers fail it, and rejoins under a new id once ZooKeeper is back.
     */
    void cutFromZooKeeper(Fault f, NodeProcess n) throws Exception {
        NodeStatus before = n.status();
        String oldId = before == null ? "" : before.id;

        f.target = n.key() + (n.client ? " (client)" : " (server)");

        if (!n.client)
            cluster.expectDown(n.name);

        f.injectedAt = System.currentTimeMillis();

        try {
            settings.lab.cutFromZooKeeper(n.name);

            if (n.client)
                awaitClientFailed(f, n, oldId);
            else if (!n.awaitExit(outMs))
                halfAlive(n, "still running " + outMs + " ms after it was cut from ZooKeeper");
            else if (!NodeHistory.read(n.logFile()).has("SEGMENTED"))
                halfAlive(n, "exited " + n.exitCode() + " after it was cut from ZooKeeper, without being segmented");
        }
        finally {
            settings.lab.heal(n.name);
        }

        f.note = "healed after " + (System.currentTimeMillis() - f.injectedAt) + " ms";

        if (n.client) {
            f.effect = () -> {
                NodeStatus now = cluster.current(n.name).status();

                return now != null && !now.id.equals(oldId);
            };
        }
    }

    /**
     * The link between servers {@code a} and {@code b} is cut; once Ignite reports it, a round removes one of them,
     * which stops as segmented, and the other stays.
     */
    void cutServers(Fault f, NodeProcess a, NodeProcess b) throws Exception {
        cluster.expectDown(a.name);
        cluster.expectDown(b.name);
        f.injectedAt = System.currentTimeMillis();

        NodeProcess removed = null;

        try {
            settings.lab.cut(a.name, b.name);

            long end = System.currentTimeMillis() + verdictMs;

            while (removed == null && System.currentTimeMillis() < end) {
                removed = !a.alive() ? a : !b.alive() ? b : null;

                if (removed == null)
                    Thread.sleep(250);
            }

            if (removed == null) {
                violations.add(new Violation(Violation.RECOVERY, "no verdict on the cut between " + a.key() + " and "
                    + b.key() + " within " + verdictMs + " ms"));
                f.target = a.key() + " (server)";
                cluster.expectUp(a.name);
                cluster.expectUp(b.name);
                return;
            }

            NodeProcess kept = removed == a ? b : a;

            f.target = removed.key() + " (server)";
            f.note = "cut from " + kept.key() + "; removed after " + (System.currentTimeMillis() - f.injectedAt) + " ms";
            cluster.expectUp(kept.name);

            if (removed.exitCode() != ChaosNode.EXIT_SEGMENTED)
                halfAlive(removed, "exited " + removed.exitCode() + " after a round removed it, not as segmented");
        }
        finally {
            try {
                settings.lab.heal(a.name);
            }
            finally {
                settings.lab.heal(b.name);
            }
        }
    }

    /**
     * Node {@code n}'s link made slow ({@link NetLab#slow}), or {@code very} slow, for two session timeouts, then healed. It may stay, which
     * is what should happen: its ZooKeeper pings are small, and TCP retransmits what is dropped. It may also be
     * removed, a server segmented and a client rejoining under a new id, but never left half alive; the note says
     * which, and its calls may fail meanwhile.
     */
    void slowLink(Fault f, NodeProcess n, boolean very) throws Exception {
        int kbit = very ? VERY_SLOW_KBIT : SLOW_KBIT;
        int loss = very ? VERY_SLOW_LOSS_PERCENT : SLOW_LOSS_PERCENT;
        String how = kbit + " kbit/s, " + loss + " % lost, for ";
        long held = 2L * settings.sessionTimeout;
        NodeStatus before = n.status();

        f.target = n.key() + (n.client ? " (client)" : " (server)");

        if (!n.client)
            cluster.expectDown(n.name);

        f.injectedAt = System.currentTimeMillis();

        try {
            settings.lab.slow(n.name, kbit, SLOW_QUEUE_MS, loss);

            long end = f.injectedAt + held;

            while (n.alive() && System.currentTimeMillis() < end)
                Thread.sleep(250);
        }
        finally {
            settings.lab.heal(n.name);
        }

        // A loss of ZooKeeper that began under the slow link is judged after it healed: the outage guard segments a
        // server 1 to 3 s after the loss (chaos-2026-11-28-1408, fault 97: lost near the end of the link's 12 s,
        // segmented 1 s later, after the run had judged it kept). A session's time covers that and a client's rejoin.
        long verdict = System.currentTimeMillis() + settings.sessionTimeout;

        while (n.alive() && !segmented(n) && System.currentTimeMillis() < verdict)
            Thread.sleep(250);

        NodeStatus now = n.status();
        // A server segmented as the link healed may still be stopping: its process alive, its exit to come.
        boolean segmented = segmented(n);

        if (!n.alive() || segmented) {
            // A client that exits is an unplanned exit already (Cluster); a server must have been segmented.
            f.note = (n.alive() ? "segmented, stopping, after " : "removed after ")
                + (System.currentTimeMillis() - f.injectedAt) + " ms; " + how + held + " ms";

            if (!n.client) {
                // A segmented server may still be stopping: it must exit, as segmented, soon.
                if (n.alive() && !n.awaitExit(SEGMENTED_EXIT_MS))
                    halfAlive(n, "segmented on a slow link, and still running " + SEGMENTED_EXIT_MS + " ms later");
                else if (n.exitCode() != ChaosNode.EXIT_SEGMENTED)
                    halfAlive(n, "exited " + n.exitCode() + " on a slow link, not as segmented");
            }
        }
        else if (before != null && now != null && !now.id.equals(before.id))
            f.note = "rejoined under a new id; " + how + held + " ms";
        else {
            f.note = "kept; " + how + held + " ms";

            if (!n.client)
                cluster.expectUp(n.name);
        }
    }

    /** @return Whether {@code n} is a server that logged its segmentation. */
    private static boolean segmented(NodeProcess n) throws java.io.IOException {
        return !n.client && NodeHistory.read(n.logFile()).has("SEGMENTED");
    }

    /**
     * Waits until a server logged client {@code n}'s failure (its old id out of the topology). Not the servers' client
     * count: with another client restarting meanwhile (every fourth fault), that count was short at once, the cut was
     * healed after 92 ms, and the client, never failed, was waited for under a new id for 180 s (a chaos run's
     * finding, fault 66 of seed 1795720332689).
     */
    private void awaitClientFailed(Fault f, NodeProcess n, String oldId) throws Exception {
        long end = System.currentTimeMillis() + outMs;

        while (System.currentTimeMillis() < end) {
            for (NodeProcess s : cluster.running(false)) {
                if (failedOn(s, oldId, f.injectedAt))
                    return;
            }

            Thread.sleep(250);
        }

        violations.add(new Violation(Violation.RECOVERY, "client " + n.key() + " still in every server's topology "
            + outMs + " ms after it was cut from ZooKeeper"));
    }

    /** @return Whether server {@code s} logged node {@code id} failed or gone at or after {@code since}. */
    private static boolean failedOn(NodeProcess s, String id, long since) throws java.io.IOException {
        if (!java.nio.file.Files.exists(s.logFile()))
            return false;

        for (NodeHistory.Line l : NodeHistory.read(s.logFile()).lines) {
            if (l.kind.equals("EVT") && l.time >= since && l.fields.length > 2 && l.fields[2].equals(id)
                && (l.fields[1].equals("NODE_FAILED") || l.fields[1].equals("NODE_LEFT")))
                return true;
        }

        return false;
    }

    private void halfAlive(NodeProcess n, String what) throws InterruptedException {
        violations.add(new Violation(Violation.HALF_ALIVE, "server " + n.key() + ' ' + what));

        if (n.alive())
            n.kill9();
    }
}
