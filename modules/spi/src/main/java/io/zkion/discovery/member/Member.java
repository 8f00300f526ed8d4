package io.zkion.discovery.member;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * A node's view of the cluster, kept by applying the event log in order: the topology, the last event
 * applied, and the entries not yet trimmed. Every node is a member; the coordinator is a member that
 * also writes the log, and applies its own entries as it commits them. Members append their own custom
 * messages to the log too, so an entry may come from any node: ZooKeeper's sequence is the order.
 * <p>
 * Composed of the {@link LogCursor} (which entries to read, in order), the {@link EventApplier} (what an
 * entry does to the topology and to Ignite) and the {@link UntrimmedEntries} (what is left to trim and ack).
 */
public final class Member {
    private final ZkIonClusterNode local;
    private final UntrimmedEntries untrimmed = new UntrimmedEntries();
    private final UnloggedDeliveries unlogged = new UnloggedDeliveries();
    private final EventApplier applier;
    private final LogCursor cursor;
    private final OlderEntries older;

    public Member(ZkStore store, EventFormats formats, ControlCodec control, ObjectCodec objects, NodeDataReader nodeData,
        Notifier notifier, DiscoveryHost host, DiscoveryMetrics metrics, ZkIonClusterNode local) {
        this.local = local;
        this.applier = new EventApplier(objects, nodeData, notifier, host, local, untrimmed, unlogged, metrics);
        this.cursor = new LogCursor(store, formats, control, metrics, host.log(), applier, untrimmed);
        this.older = new OlderEntries(objects, host.log(), applier, untrimmed);
    }

    public Topology topology() {
        return applier.topology();
    }

    public long lastEventId() {
        return applier.lastEventId();
    }

    /** @return The log position of the last entry this node applied: its epoch and ZooKeeper's sequence number. */
    public long lastPosition() {
        return cursor.lastPosition();
    }

    public UUID clusterId() {
        return applier.clusterId();
    }

    /** @return Untrimmed entries this node has applied, in sequence order. */
    public EntriesBySeq entries() {
        return untrimmed.all();
    }

    /** @return The delivered message awaiting its ack; it stays until its entry is trimmed. */
    public DiscoverySpiCustomMessage pendingAck(long eventId) {
        return untrimmed.pendingAck(eventId);
    }

    /** @return Whether the message of this event, delivered and not trimmed yet, is one Ignite awaits the ack of. */
    public boolean ackAwaited(long eventId) {
        DiscoverySpiCustomMessage msg = untrimmed.pendingAck(eventId);

        return msg != null && EventApplier.awaitsAck(msg);
    }

    /** @return Whether an untrimmed message is one Ignite awaits the ack of: every member acks it at once. */
    public boolean acksDue() {
        return untrimmed.acksDue();
    }

    /** @return Whether the log says this node left or failed; the engine acts on it after the pass. */
    public boolean excluded() {
        return applier.excluded();
    }

    /** Starts from a join: the topology of the join result; the events after this node's join still to apply. */
    public void start(UUID clusterId, Topology initial) throws Exception {
        applier.begin(clusterId, initial);
        applier.resumeAfter(cursor.seekOwnJoin(clusterId, local.id()));
    }

    /**
     * Reads and applies every entry this node has not seen, then forgets entries that were trimmed.
     *
     * @return How many events were applied, and whether one was a custom message.
     */
    public Applied catchUp() throws Exception {
        return cursor.catchUpBefore(Long.MAX_VALUE);
    }

    /** Like {@link #catchUp()}, for the entries below sequence {@code bound}: those ahead of one just written. */
    public Applied catchUpBefore(long bound) throws Exception {
        return cursor.catchUpBefore(bound);
    }

    /** Applies the entries the log watch reported created, without listing the log. */
    public Applied catchUpCreated(List<String> created) throws Exception {
        return cursor.catchUpCreated(created);
    }

    /** Forgets entries the log watch reported deleted: the coordinator trimmed them once every node had them. */
    public void onDeleted(List<String> deleted) {
        cursor.onDeleted(deleted);
    }

    /**
     * Takes over entries written before this node joined, so that a new coordinator trims them too and logs the acks
     * the nodes that delivered their messages wait for.
     */
    public void adoptOlderEntries() throws Exception {
        older.adopt(cursor.olderEntries());
    }

    /** @return Nodes taken out of the topology by entries not trimmed yet: some member may still need their data. */
    public Set<UUID> departedUntrimmed() {
        return untrimmed.departed();
    }

    /** @return Whether a message with the id of {@code msg} was delivered here lately: a second copy of a send. */
    /** @return The ids of the messages delivered here lately, for a joiner's answer; null if none. */
    public byte[] recentlyDelivered() {
        return applier.delivered().recent();
    }

    /** Takes the messages a join answer names as delivered: copies of them logged after the join are skipped. */
    public void deliveredBeforeJoin(byte[] recent, String what) {
        applier.delivered().seed(recent, what);
    }

    public boolean deliveredAlready(DiscoverySpiCustomMessage msg) {
        return applier.deliveredAlready(msg);
    }

    /**
     * Records that this node, as coordinator, handed a mutable message to Ignite before logging it: should the commit
     * fail, a retry logs it as delivered here, and the copy a successor logs is not delivered here again.
     */
    public void deliveredBeforeLogging(DiscoverySpiCustomMessage msg) {
        applier.markDelivered(msg);
        unlogged.put(msg);
    }

    /** @return The mutable message as this node delivered it before a commit that failed; null if it did not. */
    public DiscoverySpiCustomMessage deliveredUnlogged(DiscoverySpiCustomMessage msg) {
        return unlogged.get(msg);
    }

    /** @return Whether this node delivered a mutable message, as coordinator, whose commit has not landed. */
    public boolean holdsUnloggedDeliveries() {
        return unlogged.any();
    }

    /** The commit that logs a mutable message delivered here landed. */
    public void logged(DiscoverySpiCustomMessage msg) {
        unlogged.remove(msg);
    }

    /** Forgets entries the coordinator (this node) just trimmed. */
    public void onTrimmed(List<LogEntry> trimmed) {
        for (LogEntry e : trimmed)
            untrimmed.forget(e.seq);
    }

    /** Applies an entry this node just wrote as coordinator (or as the node that founded the cluster). */
    public Applied applyOwn(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> predelivered)
        throws Exception {
        return cursor.applyOwn(seq, path, manifest, batch, predelivered);
    }
}
