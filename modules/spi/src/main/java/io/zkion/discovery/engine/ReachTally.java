package io.zkion.discovery.engine;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The tally the oldest server keeps while servers report that they lost ZooKeeper, and the verdict it answers each
 * report with: every server lost it (the topology may freeze), one reaches it (it could fail the others), or not
 * everyone has said (the reporter keeps its deadline). One node counts and N report, 2N messages a tick, where every
 * server asking every other was N². Pure: the caller gives the clock and the servers.
 * <p>
 * A report that a server lost ZooKeeper counts for {@code fresh} ms only: a server that is back sends word, but if
 * that word were lost, a report kept forever would freeze the others while it can fail them. One that it reaches
 * ZooKeeper counts for a session timeout.
 */
final class ReachTally {
    /** What the tally says. */
    enum Verdict { UNDECIDED, ALL_LOST, ONE_REACHES }

    /** One server's latest report. */
    private static final class Report {
        final boolean reaches;
        final long seq;
        final long at;

        Report(boolean reaches, long seq, long at) {
            this.reaches = reaches;
            this.seq = seq;
            this.at = at;
        }
    }

    private final Map<UUID, Report> latest = new HashMap<>();

    /** The server named by the last {@link #verdict} that was ONE_REACHES. */
    private UUID reaching;

    /**
     * Keeps {@code from}'s report, unless a later one (by its sequence number, which it takes before it reads its
     * reach) came first: the two may travel on different connections.
     */
    synchronized void reported(UUID from, boolean reaches, long seq, long now) {
        Report r = latest.get(from);

        if (r == null || r.seq < seq)
            latest.put(from, new Report(reaches, seq, now));
    }

    /**
     * @param servers The servers of this node's topology, this node and those that said they are stopping excepted.
     * @param selfReaches Whether this node, the tallier, reaches ZooKeeper.
     * @param fresh How long a report of a lost ZooKeeper counts, in ms.
     * @param t The session timeout: how long a report of a reached ZooKeeper counts.
     */
    synchronized Verdict verdict(UUID self, Collection<UUID> servers, boolean selfReaches, long now, long fresh, long t) {
        if (selfReaches) {
            reaching = self;
            return Verdict.ONE_REACHES;
        }

        // Any server that says it reaches ZooKeeper, in the topology or not (one that joined before the tallier heard).
        for (Map.Entry<UUID, Report> e : latest.entrySet()) {
            Report r = e.getValue();

            if (r.reaches && now - r.at <= t) {
                reaching = e.getKey();
                return Verdict.ONE_REACHES;
            }
        }

        for (UUID s : servers) {
            Report r = latest.get(s);

            if (r == null || r.reaches || now - r.at > fresh)
                return Verdict.UNDECIDED;
        }

        return Verdict.ALL_LOST;
    }

    /** @return The server that reached ZooKeeper, as of the last ONE_REACHES verdict. */
    synchronized UUID reaching() {
        return reaching;
    }

    /** Forgets the servers no longer in {@code servers} and not heard from for {@code t} ms. */
    synchronized void forget(Collection<UUID> servers, long now, long t) {
        latest.entrySet().removeIf(e -> !servers.contains(e.getKey()) && now - e.getValue().at > t);
    }
}
