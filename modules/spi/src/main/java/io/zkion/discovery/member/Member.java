package io.zkion.discovery.member;

import io.zkion.discovery.internal.*;
import io.zkion.discovery.log.EventIds;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.EventKind;
import io.zkion.discovery.codec.ion.JoinedEventData;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * A node's view of the cluster, kept by applying the event log in order: the topology, the last event
 * applied, and the entries not yet trimmed. Every node is a member; the coordinator is a member that
 * also writes the log, and applies its own entries as it commits them. Members append their own custom
 * messages to the log too, so an entry may come from any node: ZooKeeper's sequence is the order.
 */
public final class Member {
    private final ZkStore store;
    private final ZkPaths paths;
    private final EventFormats formats;
    private final ObjectCodec objects;
    private final NodeDataReader nodeData;
    private final Notifier notifier;
    private final DiscoveryHost host;
    private final DiscoveryMetrics metrics;
    private final IgniteLogger log;
    private final ZkIonClusterNode local;

    /**
     * Set when the log says this node left or failed. Applying stops there; the engine acts on it after the
     * pass, never in the middle of one (a client's rejoin must not be followed by this pass's stale events).
     */
    private boolean excluded;

    private volatile Topology topology = Topology.EMPTY;
    private long lastEventId;
    private long lastSeq = -1;
    private UUID clusterId;

    /**
     * Entries the coordinator (this node) applied as it wrote them. The log is still read in sequence order, so
     * that an entry written by anyone else in between is read and checked, not skipped.
     */
    private final java.util.TreeSet<Long> ownUnread = new java.util.TreeSet<>();

    /** Untrimmed entries this node has applied, by sequence number. */
    private final TreeMap<Long, LogEntry> entries = new TreeMap<>();

    /** Custom messages delivered and not yet trimmed, by event id: their acks are due once all nodes have them. */
    private final TreeMap<Long, DiscoverySpiCustomMessage> pendingAcks = new TreeMap<>();

    /** The ids of the custom messages delivered last, to deliver once a send that was written twice. */
    private final DeliveredIds delivered = new DeliveredIds();

    public Member(ZkStore store, EventFormats formats, ObjectCodec objects, NodeDataReader nodeData, Notifier notifier,
        DiscoveryHost host, DiscoveryMetrics metrics, ZkIonClusterNode local) {
        this.store = store;
        this.nodeData = nodeData;
        this.paths = store.paths();
        this.formats = formats;
        this.objects = objects;
        this.notifier = notifier;
        this.host = host;
        this.metrics = metrics;
        this.log = host.log();
        this.local = local;
    }

    public Topology topology() {
        return topology;
    }

    public long lastEventId() {
        return lastEventId;
    }

    public UUID clusterId() {
        return clusterId;
    }

    public TreeMap<Long, LogEntry> entries() {
        return entries;
    }

    /** @return The delivered message awaiting its ack; it stays until its entry is trimmed. */
    public DiscoverySpiCustomMessage pendingAck(long eventId) {
        return pendingAcks.get(eventId);
    }

    public boolean excluded() {
        return excluded;
    }

    /** @return The sequence of the newest entry applied, read or written by this node; all below it are applied. */
    private long highestApplied() {
        return ownUnread.isEmpty() ? lastSeq : Math.max(lastSeq, ownUnread.last());
    }

    /** Starts from a join: the topology of the join result; the events after this node's join still to apply. */
    public void start(UUID clusterId, Topology initial) throws Exception {
        this.clusterId = clusterId;
        this.topology = initial;

        // The coordinator learns the join entry's place only as it commits it: find it, newest first (it is recent).
        List<String> names = sortedLog();

        for (int i = names.size() - 1; i >= 0; i--) {
            String path = paths.log + "/" + names.get(i);
            ZkStore.Payload p = store.readPayload(path);

            if (p == null)
                continue;

            EventBatch b = decode(p.data, path);

            if (!b.clusterId().equals(clusterId))
                continue;

            for (DiscoveryEvent e : b.events()) {
                if (e.kind() == EventKind.NODE_JOINED && e.nodeId().equals(local.id())) {
                    long seq = ZkPaths.sequence(names.get(i));

                    lastEventId = EventIds.absolute(seq, e.eventId());
                    lastSeq = seq - 1; // That entry is read again: events after the join in it still apply.

                    return;
                }
            }
        }

        throw new IgniteSpiException("The event log under " + paths.log + " has no join event for node " + local.id());
    }

    private List<String> sortedLog() throws Exception {
        List<String> names = new ArrayList<>(store.children(paths.log));

        names.sort((a, b) -> Long.compare(ZkPaths.sequence(a), ZkPaths.sequence(b)));

        return names;
    }

    /**
     * Reads and applies every entry this node has not seen, then forgets entries that were trimmed.
     *
     * @return How many events were applied, and whether one was a custom message.
     */
    public Applied catchUp() throws Exception {
        return catchUpBefore(Long.MAX_VALUE);
    }

    /** Like {@link #catchUp()}, for the entries below sequence {@code bound}: those ahead of one just written. */
    public Applied catchUpBefore(long bound) throws Exception {
        Applied total = new Applied();

        // ZooKeeper numbers a sequential child by the parent's count of child creations and deletions so far: if
        // the entry just written comes right after the last one this node applied, nothing came in between.
        if (bound == highestApplied() + 1)
            return total;

        List<String> names = sortedLog();
        Map<Long, Boolean> present = new HashMap<>();

        for (String name : names) {
            long seq = ZkPaths.sequence(name);

            present.put(seq, Boolean.TRUE);

            if (seq < bound)
                total.add(readAndApply(name, seq));
        }

        forgetTrimmed(present);

        // Own entries below the newest listed one that were not listed are trimmed already.
        if (!names.isEmpty() && bound == Long.MAX_VALUE)
            ownUnread.headSet(ZkPaths.sequence(names.get(names.size() - 1))).clear();

        return total;
    }

    /**
     * Applies the entries the log watch reported created, without listing the log: ZooKeeper delivers a persistent
     * watch's events in order and without loss while the watch stands, and a reset of the watch lists the log again.
     */
    public Applied catchUpCreated(List<String> created) throws Exception {
        Applied total = new Applied();
        List<String> names = new ArrayList<>(created);

        names.sort((a, b) -> Long.compare(ZkPaths.sequence(a), ZkPaths.sequence(b)));

        for (String name : names)
            total.add(readAndApply(name, ZkPaths.sequence(name)));

        return total;
    }

    /** Forgets entries the log watch reported deleted: the coordinator trimmed them once every node had them. */
    public void onDeleted(List<String> deleted) {
        for (String name : deleted) {
            long seq = ZkPaths.sequence(name);

            forget(seq);
            ownUnread.remove(seq);
        }
    }

    /** Forgets a trimmed entry, and the messages of it that awaited their acks. */
    private void forget(long seq) {
        LogEntry e = entries.remove(seq);

        if (e != null)
            pendingAcks.headMap(e.lastEventId, true).clear();
    }

    /** Reads and applies one entry unless this node has it already. */
    private Applied readAndApply(String name, long seq) throws Exception {
        if (excluded || seq <= lastSeq)
            return new Applied();

        if (ownUnread.remove(seq)) {
            lastSeq = seq;
            return new Applied();
        }

        String path = paths.log + "/" + name;
        ZkStore.Payload p;

        try {
            p = store.readPayload(path);
        }
        catch (ZkDataException e) {
            throw new IgniteSpiException("Corrupt event log entry " + path + ": " + e.getMessage(), e);
        }

        if (p == null)
            return new Applied(); // Trimmed meanwhile: only entries every node acked can be.

        metrics.onRead(p.data.length);

        EventBatch batch = decode(p.data, path);

        if (clusterId != null && !batch.clusterId().equals(clusterId)) {
            log.warning("Skipping " + path + ": it belongs to cluster " + batch.clusterId() + ", not " + clusterId);
            lastSeq = seq;
            return new Applied();
        }

        Applied a = apply(seq, path, p.manifest, batch, Collections.emptyMap());

        lastSeq = seq;

        return a;
    }

    private EventBatch decode(byte[] data, String path) {
        try {
            return formats.decode(data, path);
        }
        catch (CodecException e) {
            // Never skip: a skipped entry would silently fork this node's view from the cluster's.
            throw new IgniteSpiException("Corrupt event log entry " + path + ": " + e.getMessage(), e);
        }
    }

    private void forgetTrimmed(Map<Long, Boolean> present) {
        for (Long seq : new ArrayList<>(entries.keySet())) {
            if (!present.containsKey(seq))
                forget(seq);
        }
    }

    /**
     * Takes over entries this node never applied (written before it joined) and that are still in the log, so
     * that a new coordinator trims them too. Their custom messages were never delivered here: no ack for them.
     */
    public void adoptOlderEntries() throws Exception {
        for (String name : sortedLog()) {
            long seq = ZkPaths.sequence(name);

            if (seq > lastSeq || entries.containsKey(seq))
                continue;

            String path = paths.log + "/" + name;
            byte[] raw = store.rawData(path);
            ZkStore.Payload p = raw == null ? null : store.readPayload(path);

            if (p == null)
                continue;

            EventBatch b = decode(p.data, path);

            if (!b.events().isEmpty()) {
                entries.put(seq, new LogEntry(seq, path, EventIds.absolute(seq, b.eventIdCounter()), Collections.emptyList(),
                    departed(b), p.manifest));
            }
        }
    }

    /** @return The nodes {@code b} takes out of the topology. */
    private static List<UUID> departed(EventBatch b) {
        List<UUID> out = null;

        for (DiscoveryEvent e : b.events()) {
            if (e.kind() == EventKind.NODE_LEFT || e.kind() == EventKind.NODE_FAILED) {
                if (out == null)
                    out = new ArrayList<>(1);

                out.add(e.nodeId());
            }
        }

        return out == null ? Collections.emptyList() : out;
    }

    /** @return Nodes taken out of the topology by entries not trimmed yet: some member may still need their data. */
    public Set<UUID> departedUntrimmed() {
        Set<UUID> out = new HashSet<>();

        for (LogEntry e : entries.values())
            out.addAll(e.departed);

        return out;
    }

    /** @return Whether a message with the id of {@code msg} was delivered here lately: a second copy of a send. */
    public boolean deliveredAlready(DiscoverySpiCustomMessage msg) {
        return delivered.contains(msg);
    }

    /** Forgets entries the coordinator (this node) just trimmed. */
    public void onTrimmed(List<LogEntry> trimmed) {
        for (LogEntry e : trimmed)
            forget(e.seq);
    }

    /** Applies an entry this node just wrote as coordinator (or as the node that founded the cluster). */
    public Applied applyOwn(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> predelivered)
        throws Exception {
        ownUnread.add(seq);

        return apply(seq, path, manifest, batch, predelivered);
    }

    /**
     * Applies the events of one entry that are newer than the last applied.
     *
     * @param predelivered Custom messages the coordinator already handed to Ignite, by event id, or
     *      decoded objects to use instead of unmarshalling (see {@link Predecoded}).
     */
    private Applied apply(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> predelivered)
        throws Exception {
        Applied applied = new Applied();
        List<Long> customIds = new ArrayList<>();

        if (clusterId == null)
            clusterId = batch.clusterId();

        for (DiscoveryEvent e : batch.events()) {
            if (excluded)
                break;

            if (e.eventId() < 0 || e.eventId() >= EventIds.PER_ENTRY)
                throw new IgniteSpiException(path + ": event index " + e.eventId() + " is outside 0.." + (EventIds.PER_ENTRY - 1));

            long id = EventIds.absolute(seq, e.eventId());

            if (id <= lastEventId)
                continue;

            Predecoded pre = predelivered.get(e.eventId());

            switch (e.kind()) {
                case NODE_JOINED: onJoined(e, path, pre); break;
                case NODE_LEFT:
                case NODE_FAILED: onRemoved(e); break;
                default:
                    if (onCustom(e, id, path, pre, applied) && e.kind() == EventKind.CUSTOM)
                        customIds.add(id);
            }

            lastEventId = id;
            applied.events++;
        }

        if (!batch.events().isEmpty()) {
            long last = EventIds.absolute(seq, batch.events().get(batch.events().size() - 1).eventId());

            entries.put(seq, new LogEntry(seq, path, last, customIds, departed(batch), manifest));
        }

        return applied;
    }

    private void onJoined(DiscoveryEvent e, String path, Predecoded pre) throws Exception {
        JoinedEventData d = JoinedEventData.decode(e.data(), path + " event " + e.eventId());
        NodeRecord rec = NodeRecord.decode(d.record, path + " node record");
        ZkIonClusterNode node;

        if (rec.id().equals(local.id()))
            node = local; // Our own join, applied by the coordinator that created the cluster.
        else if (pre != null && pre.node != null)
            node = pre.node; // The coordinator's own join: it has the node, and exchanged its data already.
        else {
            // In ion-2 the node and its joining data are in its data znode, written once by the joiner.
            NodeData nd = rec.byReference() || d.joinData == null ? readNodeData(rec.id(), path) : null;

            node = objects.unmarshal(rec.byReference() ? nd.node : rec.data(), path + " node " + rec.id());

            if (pre == null || !pre.exchanged) {
                Map<Integer, Serializable> joinData = objects.unmarshal(d.joinData != null ? d.joinData : nd.joinData,
                    path + " joining data");
                DiscoveryDataBag bag = new DiscoveryDataBag(node.id(), node.isClient());

                bag.joiningNodeData(joinData);
                host.exchange().onExchange(bag);
            }
        }

        node.order(rec.order());

        // The map first: Ignite asks the SPI whether a node is alive while it handles the notification.
        topology = topology.withJoined(e.topVer(), node, d.record);

        notifier.joined(e.topVer(), node, topology.nodes());
    }

    /** Like a corrupt entry, a join whose node cannot be read stops this node: skipping it would fork its view. */
    private NodeData readNodeData(UUID id, String path) throws Exception {
        try {
            return nodeData.read(id, path + " join of " + id);
        }
        catch (CodecException | ZkDataException e) {
            throw new IgniteSpiException("Cannot apply a join: " + e.getMessage(), e);
        }
    }

    private void onRemoved(DiscoveryEvent e) {
        ZkIonClusterNode node = topology.node(e.nodeId());

        if (node == null) {
            log.warning("Event " + e + " removes a node this node does not know; ignored");
            return;
        }

        topology = topology.without(e.topVer(), e.nodeId());

        if (node.id().equals(local.id())) {
            excluded = true;
            return;
        }

        if (e.kind() == EventKind.NODE_LEFT)
            notifier.left(e.topVer(), node, topology.nodes());
        else
            notifier.failed(e.topVer(), node, topology.nodes());
    }

    /**
     * @param applied Told whether the message awaits an ack.
     * @return Whether the message was delivered: one from a node no longer in the topology is not.
     */
    private boolean onCustom(DiscoveryEvent e, long id, String path, Predecoded pre, Applied applied) {
        ZkIonClusterNode sender = topology.node(e.nodeId());

        if (sender == null) {
            // A member appends its messages itself, so one may land after the event that removed it. Every node
            // skips it alike, at the same place in the log.
            if (log.isDebugEnabled())
                log.debug("Skipping custom event " + id + " of " + e.nodeId() + ", which left the topology before it");

            return false;
        }

        DiscoverySpiCustomMessage msg = pre != null ? pre.msg : objects.unmarshal(e.data(), path + " custom event " + id);

        // Every node applies the same log, so every node that saw the first copy skips the second alike.
        if (e.kind() == EventKind.CUSTOM && !delivered.add(msg)) {
            log.warning("Skipping custom event " + id + " in " + path + ": its message " + DeliveredIds.id(msg)
                + " was delivered already (a send replayed after a lost connection is written twice)");

            return false;
        }

        if (pre == null || !pre.delivered)
            notifier.custom(topology.topVer(), sender, topology.nodes(), msg);

        // An ack message is never acked in turn (Ignite builds a fresh ack from some acks, without end).
        if (!local.isClient() && e.kind() == EventKind.CUSTOM)
            pendingAcks.put(id, msg);

        if (e.kind() == EventKind.CUSTOM && awaitsAck(msg))
            applied.ackAwaited = true;

        return true;
    }

    /**
     * @return Whether Ignite waits for an ack message after this one: then it waits on every node's ack. Ignite's
     *      {@code ackMessage()} only builds the ack from the message's fields; if one cannot say, ack soon to be safe.
     */
    private static boolean awaitsAck(DiscoverySpiCustomMessage msg) {
        try {
            return msg.ackMessage() != null;
        }
        catch (RuntimeException e) {
            return true;
        }
    }
}
