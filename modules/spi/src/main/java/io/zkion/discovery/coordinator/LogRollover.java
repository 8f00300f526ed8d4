package io.zkion.discovery.coordinator;

import java.util.concurrent.TimeUnit;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;
import org.apache.zookeeper.KeeperException;

/**
 * Starts the log afresh long before ZooKeeper's sequence counter under it reaches 2^31 (a signed int that only grows,
 * and {@code log/} outlives any one coordinator): the log is drained, then deleted and created again in one commit
 * with the state that names the next epoch ({@link FencedLogWriter#rollLog}). Entry names carry their epoch, so
 * positions grow across epochs and no reader needs to know when the rollover happened.
 * <p>
 * The protocol, as states of this class:
 * <ul>
 *     <li>{@link State#IDLE}: the counter is below the threshold; nothing to do.</li>
 *     <li>{@link State#DRAINING}: the gate is held closed, so members append nothing; joins and queued messages
 *     wait; departures and trims go on, until every member has acked every entry and the log is empty. Then the
 *     rollover commits, the gate opens in the new epoch, and it is IDLE again.</li>
 * </ul>
 * A drain that does not finish in {@link #DRAIN_LIMIT_MS} (a member slow to ack), or a log that holds an entry this
 * coordinator does not track, gives up for {@link #RETRY_AFTER_MS}, the gate open again: the cluster never waits on
 * a rollover for long, and the counter has the other half of its range left meanwhile.
 */
final class LogRollover {
    /** The sequence number from which a rollover is due: half of the counter's range, the other half to spare. */
    static final long DEFAULT_ROLL_AT = 1L << 30;

    /** How long a drain may hold joins and members' messages back before it gives up for now. */
    static final long DRAIN_LIMIT_MS = 30_000;

    /** How long after a drain gave up the next one starts. */
    static final long RETRY_AFTER_MS = 60_000;

    /** Set lower by tests, so that a rollover comes after a few entries. */
    private static volatile long rollAt = DEFAULT_ROLL_AT;

    enum State {
        IDLE,
        DRAINING
    }

    private final Member member;
    private final FencedLogWriter writer;
    private final Gate gate;
    private final ZkStore store;
    private final IgniteLogger log;
    private final DiscoveryMetrics metrics;

    private State state = State.IDLE;

    /** When the current drain started, or when the next may start after one gave up; by {@link System#nanoTime}. */
    private long drainStarted;
    private long retryAt;
    private boolean deferred;

    LogRollover(CoordinatorContext ctx, FencedLogWriter writer, Gate gate) {
        this.member = ctx.member;
        this.writer = writer;
        this.gate = gate;
        this.store = ctx.store;
        this.log = ctx.log;
        this.metrics = ctx.metrics;
    }

    /** Makes a rollover due from sequence number {@code seq} on, in every coordinator of this JVM. */
    @TestSeam
    static void rollAtForTest(long seq) {
        rollAt = seq <= 0 ? DEFAULT_ROLL_AT : seq;
    }

    /** @return The sequence number from which a rollover is due. */
    static long rollAt() {
        return rollAt;
    }

    /** @return Whether the log, at {@code position}, has reached the sequence number from which a rollover is due. */
    static boolean due(long position) {
        return ZkPaths.sequenceOf(position) >= rollAt;
    }

    boolean draining() {
        return state == State.DRAINING;
    }

    /**
     * Starts a drain if the counter reached the threshold. Run with the gate open, before the step's other work.
     *
     * @return Whether the log is draining: then the step takes no joins and no queued messages.
     */
    boolean begin() throws Exception {
        if (state == State.DRAINING)
            return true;

        long last = member.lastPosition();

        // An entry of an earlier epoch is the last one applied right after a rollover, until the next entry comes.
        if (ZkPaths.epochOf(last) != writer.state().logEpoch || !due(last)
            || deferred && System.nanoTime() - retryAt < 0)
            return false;

        writer.closeGate(); // Members' appends before it are applied: from here the log only shrinks.
        gate.hold();

        state = State.DRAINING;
        drainStarted = System.nanoTime();
        deferred = false;

        log.info("The event log's sequence is at " + ZkPaths.sequenceOf(last) + ": rolling it over to epoch "
            + (ZkPaths.epochOf(last) + 1) + " once every member has acked what it holds (joins and queued messages"
            + " wait meanwhile)");

        return true;
    }

    /** Rolls over once the drain emptied the log; gives up for now if it takes too long. Run after the trim. */
    void finish() throws Exception {
        if (state != State.DRAINING)
            return;

        if (!member.entries().isEmpty()) {
            if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - drainStarted) > DRAIN_LIMIT_MS) {
                giveUp("members have not acked " + member.entries().size() + " entries in " + DRAIN_LIMIT_MS
                    + " ms (the oldest is " + member.entries().oldest().path + ")");
            }

            return;
        }

        long last = member.lastPosition();

        gate.release(); // The rollover's commit opens the gate, in the new epoch.

        try {
            writer.rollLog(last);
        }
        catch (KeeperException.NotEmptyException e) {
            giveUp(store.paths().log + " holds entries this coordinator does not track: " + store.children(store.paths().log));
            return;
        }

        state = State.IDLE;
        metrics.onLogRolledOver();

        log.info("The event log rolled over to epoch " + (ZkPaths.epochOf(last) + 1) + " after "
            + store.paths().logEntry(last) + " [drain=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - drainStarted)
            + " ms]");
    }

    private void giveUp(String why) {
        gate.release(); // The next commit opens the gate: the next step's, if none comes first.

        state = State.IDLE;
        deferred = true;
        retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_AFTER_MS);

        log.warning("The event log's rollover gave up for " + RETRY_AFTER_MS + " ms: " + why);
    }
}
