package io.zkion.discovery.engine;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The rule a joined node follows while it cannot reach ZooKeeper, as a state machine on a clock it is given (so that
 * it is tested without one). ZooKeeper expires no session while its ensemble has no quorum, so an outage of the
 * ensemble is one every node rides out with its place kept. A node cut off alone is another matter: the ensemble
 * expires its session and the others fail it and take over its partitions, so it must stop serving first.
 * <ul>
 * <li>A client freezes: it holds no partitions, and if the cluster fails it meanwhile, it rejoins as a new node.</li>
 * <li>A server freezes once every other server of its topology has said that it does not reach ZooKeeper
 * either: then nobody can fail anybody. They say so to the tallier, which gives its verdict.</li>
 * <li>Without that answer from every one of them (one reaches ZooKeeper, or does not answer), it is cut off a sixth
 * of the session timeout after it lost ZooKeeper. Its client notices silence after two thirds of the timeout, so the
 * ensemble may expire its session a third of the timeout after that, at the earliest; the other sixth is the margin
 * for a client that notices late (a busy machine; a quarter was measured too short by 70 ms at 6 s). Once only, the
 * deadline moves to half the timeout when a ZooKeeper server has answered this node that it serves: the node is not cut off, its
 * client is between servers (one crashed, and the client waits up to a second before it tries the next).</li>
 * <li>A frozen server that hears a peer reach ZooKeeper again while it still does not is cut off half a session
 * timeout after that unless it reconnects: the new leader gave its session a full timeout at the quorum's return,
 * at most moments before the peer reconnected.</li>
 * </ul>
 * States: CONNECTED; DECIDING (lost, a deadline running); FROZEN (lost by all); CUT_OFF (final: segmented).
 */
final class OutageRule {
    /** The states. */
    enum Outage { CONNECTED, DECIDING, FROZEN, CUT_OFF }

    /** What one {@link #decide} did. */
    enum Verdict { NONE, FROZE, EXTENDED, PEER_BACK, CUT_OFF }

    private Outage state = Outage.CONNECTED;
    /** Numbers the outages: answers to an earlier one's questions are stale. */
    private long number;
    private long startedAt;
    private long deadline;
    private boolean extended;
    private long servingSeenAt = Long.MIN_VALUE;
    /** The tallier's latest verdict in this outage: every other server lost ZooKeeper too. */
    private boolean allLostVerdict;
    /** The server the tallier's latest verdict in this outage names as reaching ZooKeeper; null if none. */
    private UUID verdictReaching;
    /** Each server peer's latest answer in this outage: whether it reaches ZooKeeper. */
    private final Map<UUID, Boolean> answers = new HashMap<>();

    synchronized Outage state() {
        return state;
    }

    /** @return Whether the node is in an outage: DECIDING or FROZEN. */
    synchronized boolean active() {
        return state == Outage.DECIDING || state == Outage.FROZEN;
    }

    synchronized long number() {
        return number;
    }

    synchronized long startedAt() {
        return startedAt;
    }

    synchronized long deadline() {
        return deadline;
    }

    /** @return How long after it lost ZooKeeper a server without every peer's answer is cut off. */
    static long firstDeadline(long t) {
        return t / 6;
    }

    /**
     * ZooKeeper lost, at {@code now}, by a joined node whose session timeout is {@code t}.
     * @return The new outage's number; 0 if the node was in one already, or is cut off.
     */
    synchronized long suspended(boolean client, long now, long t) {
        if (state != Outage.CONNECTED)
            return 0;

        state = client ? Outage.FROZEN : Outage.DECIDING;
        startedAt = now;
        deadline = now + firstDeadline(t);
        extended = false;
        allLostVerdict = false;
        verdictReaching = null;
        answers.clear();

        return ++number;
    }

    /** @return The state the outage ended in (DECIDING or FROZEN); null if there was none to end. */
    synchronized Outage ended() {
        if (!active())
            return null;

        Outage prev = state;

        state = Outage.CONNECTED;

        return prev;
    }

    synchronized void answered(long outage, UUID peer, boolean reaches) {
        if (outage == number && active())
            answers.put(peer, reaches);
    }

    /**
     * The tallier's verdict on outage {@code outage}: every other server lost ZooKeeper ({@code allLost}), or
     * {@code reaching} reaches it (null if none), or neither (not every server has said).
     */
    synchronized void verdict(long outage, boolean allLost, UUID reaching) {
        if (outage != number || !active())
            return;

        // Each verdict replaces the last: a server named as reaching on news from before this outage is named no more
        // once it reports that it lost ZooKeeper too (sticky, it cut off every server at 100 members in the scale run).
        allLostVerdict = allLost && reaching == null;
        verdictReaching = reaching;
    }

    /** A ZooKeeper server answered this node, at {@code now}, that it serves. */
    synchronized void servingSeen(long now) {
        servingSeenAt = now;
    }

    /** Applies the rule at {@code now} to what the {@code peers} (the other servers) said. */
    synchronized Verdict decide(Collection<UUID> peers, long now, long t) {
        if (state == Outage.DECIDING) {
            if (allLost(peers)) {
                state = Outage.FROZEN;
                return Verdict.FROZE;
            }

            if (now < deadline)
                return Verdict.NONE;

            if (!extended && servingSeenAt >= startedAt) {
                extended = true;
                deadline = startedAt + t / 2;
                return now < deadline ? Verdict.EXTENDED : cutOff();
            }

            return cutOff();
        }

        if (state == Outage.FROZEN && reachingPeer() != null) {
            state = Outage.DECIDING;
            deadline = now + t / 2;
            extended = true;
            return Verdict.PEER_BACK;
        }

        return Verdict.NONE;
    }

    private Verdict cutOff() {
        state = Outage.CUT_OFF;
        return Verdict.CUT_OFF;
    }

    /** @return A peer whose latest answer is that it reaches ZooKeeper; null if none. */
    synchronized UUID reachingPeer() {
        for (Map.Entry<UUID, Boolean> e : answers.entrySet()) {
            if (e.getValue())
                return e.getKey();
        }

        return verdictReaching;
    }

    /** @return How many of {@code peers} said last that they do not reach ZooKeeper. */
    synchronized int lostCount(Collection<UUID> peers) {
        int n = 0;

        for (UUID p : peers)
            n += Boolean.FALSE.equals(answers.get(p)) ? 1 : 0;

        return n;
    }

    private boolean allLost(Collection<UUID> peers) {
        return reachingPeer() == null && (allLostVerdict || lostCount(peers) == peers.size());
    }
}
