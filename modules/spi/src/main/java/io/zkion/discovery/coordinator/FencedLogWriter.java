package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.log.LogEntryWriter;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.Predecoded;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.ignite.IgniteLogger;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Every commit of the coordinator. Each sets the cluster state with a version check, or only checks it, so that a
 * coordinator that lost its role without noticing writes nothing; each writes the gate when the {@link Gate} says
 * the commit changes it.
 */
final class FencedLogWriter {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final Member member;
    private final ZkIonClusterNode local;
    private final DiscoveryMetrics metrics;
    private final LogEntryWriter entries;
    private final Gate gate;
    private final CommitOutcome outcome;
    private final IgniteLogger log;

    private ClusterState state;
    private int stateVersion;

    /** Whether this coordinator said the log's sequence nears its limit. */
    private boolean sequenceWarned;

    FencedLogWriter(CoordinatorContext ctx, Gate gate) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.codec = ctx.codec;
        this.member = ctx.member;
        this.local = ctx.local;
        this.metrics = ctx.metrics;
        this.entries = new LogEntryWriter(ctx.store, ctx.formats);
        this.gate = gate;
        this.outcome = new CommitOutcome(ctx.store);
        this.log = ctx.log;
    }

    void readState() throws Exception {
        Stat stat = new Stat();
        byte[] data = store.read(paths.state, stat);

        if (data == null)
            throw new FencedException("the cluster state znode " + paths.state + " is gone");

        state = codec.decodeState(data, paths.state);
        stateVersion = stat.getVersion();
    }

    /** @return The cluster state as this node last read or committed it. */
    ClusterState state() {
        return state;
    }

    /**
     * Closes the gate to members' appends and applies what they appended before: from here until the gate
     * opens, the log's tail is this node's alone.
     */
    void closeGate() throws Exception {
        if (gate.isClosed())
            return;

        gate.closeWithNextCommit();

        try {
            commitFenced(Collections.emptyList());
        }
        finally {
            gate.closingEnded();
        }

        metrics.onGateClosed();

        member.catchUp();
    }

    /** Opens the gate, if it is closed, with a commit of nothing else. */
    void openGate() throws Exception {
        if (gate.isClosed())
            commitFenced(Collections.emptyList());
    }

    void append(List<DiscoveryEvent> events, List<CuratorOp> extra, ClusterState next,
        Map<Long, Predecoded> pre, ZkStore.Prepared... alsoPrepared) throws Exception {
        apply(commit(events, extra, next, pre, alsoPrepared));
    }

    /** Commits a log entry of {@code events} with {@code extra}; this node applies it with {@link #apply}. */
    Committed commit(List<DiscoveryEvent> events, List<CuratorOp> extra, ClusterState next,
        Map<Long, Predecoded> pre, ZkStore.Prepared... alsoPrepared) throws Exception {
        LogEntryWriter.Draft entry = entries.logEntry(next.clusterId, next.topVer, events,
            FormatId.ofWireName(next.format), next.logEpoch);
        List<CuratorOp> ops = new ArrayList<>(entry.prepared.ops);
        int checkedVersion = stateVersion;
        byte[] stateBytes = codec.encode(next);

        ops.addAll(extra);

        String created;

        try {
            created = commitFenced(ops, next, stateBytes).get(0).getResultPath();
        }
        catch (FencedException | KeeperException e) {
            // Its reply may have been lost after it landed, and Curator's replay failed on its own writes: then it
            // is a fact, and this node goes on from it, rather than redo its work (deliver, exchange) once more.
            created = outcome.landedEntry(checkedVersion, stateBytes, entry.stored);

            if (created == null)
                throw e;

            log.info("A commit's reply was lost after it landed; going on from its entry " + created);
            committed(next, true);
        }

        metrics.onWritten(entry.size);
        metrics.onLogEntryWritten();

        long seq = ZkPaths.sequence(created);

        if (ZkPaths.sequenceOf(seq) >= ZkPaths.SEQUENCE_WARNING && !sequenceWarned) {
            sequenceWarned = true;
            log.warning("The event log's sequence is at " + ZkPaths.sequenceOf(seq) + " of ZooKeeper's limit of 2^31"
                + " under " + paths.log + ", and the log has not rolled over to a new epoch (see the errors before):"
                + " stop every node of the cluster before the limit is reached (the last one out resets it), or the"
                + " nodes will stop with an error then");
        }

        return new Committed(seq, created, entry.prepared.manifest, entry.batch, pre);
    }

    /**
     * Starts the log afresh in the next epoch: deletes {@code log/} and creates it again, so that ZooKeeper's counter
     * under it starts from zero, in one commit with the state that names the epoch and the gate that has members
     * write in it. The log must be empty (drained) and the gate closed; the commit fails on an entry left in it.
     *
     * @param lastPosition The position of the last entry of the epoch that ends: readers check they applied it.
     */
    void rollLog(long lastPosition) throws Exception {
        ClusterState next = state.nextEpoch(lastPosition).with(state.topVer, member.lastEventId(), state.format,
            local.id());
        byte[] stateBytes = codec.encode(next);
        int checkedVersion = stateVersion;
        List<CuratorOp> ops = new ArrayList<>();

        ops.add(store.deleteOp(paths.log));
        ops.add(store.client().transactionOp().create().forPath(paths.log));

        try {
            commitFenced(ops, next, stateBytes);
        }
        catch (FencedException | KeeperException e) {
            // A replay of a rollover that landed fails on the state's version: the state tells.
            if (!outcome.stateLanded(checkedVersion, stateBytes))
                throw e;

            log.info("A log rollover's reply was lost after it landed; going on in epoch " + next.logEpoch);
            committed(next, true);
        }
    }

    /** Applies an entry this node committed; members may have appended custom messages before it: those first. */
    void apply(Committed c) throws Exception {
        member.catchUpBefore(c.seq);
        member.applyOwn(c.seq, c.path, c.manifest, c.batch, c.pre);
    }

    /** A log entry this node committed and has yet to apply. */
    static final class Committed {
        public final long seq;
        public final String path;
        final byte[] manifest;
        public final EventBatch batch;
        public final Map<Long, Predecoded> pre;

        Committed(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> pre) {
            this.seq = seq;
            this.path = path;
            this.manifest = manifest;
            this.batch = batch;
            this.pre = pre;
        }
    }

    /** @return The state after a commit: its event id is the last this node applied then, for the record. */
    ClusterState next(long topVer, String format) {
        return state.with(topVer, member.lastEventId(), format, local.id());
    }

    /** @return The state after a commit that changes neither the topology nor the format. */
    ClusterState next() {
        return next(state.topVer, state.format);
    }

    List<CuratorTransactionResult> commitFenced(List<CuratorOp> ops) throws Exception {
        return commitFenced(ops, state, null);
    }

    /** What a commit that landed changes here: the state it wrote, and the gate. */
    private void committed(ClusterState next, boolean stateChanges) {
        if (stateChanges) {
            state = next;
            stateVersion++;
        }

        gate.committed(next);
    }

    /**
     * Commits {@code ops} with {@code next} as the new state, checked against the version last read. When the state
     * does not change (a trim, closing the gate) it is only checked, not rewritten: the fence is the same.
     */
    private List<CuratorTransactionResult> commitFenced(List<CuratorOp> ops, ClusterState next, byte[] nextBytes)
        throws Exception {
        List<CuratorOp> all = new ArrayList<>(ops);
        GateState gateNext = gate.toWrite(next);
        boolean stateChanges = next != state;

        // Members write in the gate's format: it changes with the state's, in the same commit.
        if (gateNext != null)
            all.add(store.setDataOp(paths.gate, codec.encode(gateNext)));

        all.add(stateChanges ? store.setDataOp(paths.state, nextBytes != null ? nextBytes : codec.encode(next),
            stateVersion) : store.checkOp(paths.state, stateVersion));
        // A coordinator whose session is gone (its alive node with it) must never commit, even through a replay.
        all.add(store.checkOp(paths.alive(local.id())));

        try {
            List<CuratorTransactionResult> res = store.commit(all);

            committed(next, stateChanges);

            return res;
        }
        catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            if (e instanceof KeeperException.BadVersionException || paths.state.equals(e.getPath())
                || paths.alive(local.id()).equals(e.getPath())) {
                metrics.onCommitConflict();
                throw new FencedException("the cluster state changed under this coordinator (" + e.getMessage() + ")");
            }

            throw e;
        }
    }
}
