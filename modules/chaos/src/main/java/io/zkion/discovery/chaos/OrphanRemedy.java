package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * Asks each server to roll back Ignite 2.17's orphaned transactions ({@link OrphanedTransactions}), as
 * docs/operations.md tells an operator to: after every fault once the cluster settled, and when it has not settled a
 * minute after a fault or a client's restart, where nothing needs that long (the longest recovery of the runs of
 * 2026-11-28 took 37 s). Each find is named in the fault's note and counted in the report: it is Ignite's defect, met
 * and cleared. A cluster that still does not settle is a violation as before.
 */
final class OrphanRemedy {
    /** How long the cluster may take to settle before the run looks for an orphan. */
    static final long AFTER_MS = 60_000;
    /** How long all servers together have to answer. */
    private static final long ANSWER_MS = 45_000;

    private int seq;
    /** Calls that found an orphan on some server (not the end's check). */
    long met;
    /** Transactions those calls rolled back, over every server. */
    long rolledBack;

    /** What one call found. */
    static final class Answer {
        /** {@code <node>: <transactions>}, one for each server that held one. */
        final List<String> rolled = new ArrayList<>();
        /** {@code <node>: <why>}, one for each server that did not answer, or failed to look. */
        final List<String> failed = new ArrayList<>();
    }

    /** Asks every live server; {@code count}: whether what it finds counts as met (not at the end's check). */
    Answer apply(Cluster cluster, boolean count) throws Exception {
        String s = "r" + (++seq);
        List<NodeProcess> servers = cluster.running(false);
        Answer a = new Answer();

        servers.removeIf(n -> !n.alive());

        for (NodeProcess n : servers)
            n.command("orphans " + s);

        long end = System.currentTimeMillis() + ANSWER_MS;

        for (NodeProcess n : servers) {
            NodeHistory.Line l = n.awaitAnswer("ORPHANS", s, Math.max(1, end - System.currentTimeMillis()));

            if (l == null)
                a.failed.add(n.key() + ": no answer within " + ANSWER_MS / 1000 + " s");
            else if (l.fields[1].equals("-1"))
                a.failed.add(n.key() + ": " + l.fields[2]);
            else if (!l.fields[1].equals("0")) {
                a.rolled.add(n.key() + ": " + l.fields[2]);

                if (count)
                    rolledBack += Long.parseLong(l.fields[1]);
            }
        }

        if (count && !a.rolled.isEmpty())
            met++;

        return a;
    }
}
