package io.zkion.discovery.member;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventKind;
import io.zkion.discovery.codec.ion.JoinedEventData;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.log.EventIds;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * Turns the events of one log entry into the node's new topology and Ignite's notifications, in order: joins with
 * their data exchange, departures, custom messages (each delivered once, see {@link DeliveredIds}).
 */
final class EventApplier {
    private final ObjectCodec objects;
    private final NodeDataReader nodeData;
    private final Notifier notifier;
    private final DiscoveryHost host;
    private final IgniteLogger log;
    private final ZkIonClusterNode local;
    private final UntrimmedEntries untrimmed;

    /** Mutable messages this node delivered as coordinator whose commit did not land, as far as it knows. */
    private final UnloggedDeliveries unlogged;
    private final DiscoveryMetrics metrics;

    /**
     * Set when the log says this node left or failed. Applying stops there; the engine acts on it after the
     * pass, never in the middle of one (a client's rejoin must not be followed by this pass's stale events).
     */
    private boolean excluded;

    private volatile Topology topology = Topology.EMPTY;
    private long lastEventId;
    private UUID clusterId;

    /** The ids of the custom messages delivered last, to deliver once a send that was written twice. */
    private final DeliveredIds delivered = new DeliveredIds();

    /** The data znodes of the joins of the entry being applied, read together ({@link #readAhead}). */
    private Map<UUID, ZkStore.Payload> readAhead = Collections.emptyMap();

    EventApplier(ObjectCodec objects, NodeDataReader nodeData, Notifier notifier, DiscoveryHost host,
        ZkIonClusterNode local, UntrimmedEntries untrimmed, UnloggedDeliveries unlogged, DiscoveryMetrics metrics) {
        this.objects = objects;
        this.nodeData = nodeData;
        this.notifier = notifier;
        this.host = host;
        this.log = host.log();
        this.local = local;
        this.untrimmed = untrimmed;
        this.unlogged = unlogged;
        this.metrics = metrics;
    }

    Topology topology() {
        return topology;
    }

    long lastEventId() {
        return lastEventId;
    }

    UUID clusterId() {
        return clusterId;
    }

    boolean excluded() {
        return excluded;
    }

    boolean deliveredAlready(DiscoverySpiCustomMessage msg) {
        return delivered.contains(msg);
    }

    boolean deliveredHere(DiscoverySpiCustomMessage msg) {
        return delivered.deliveredHere(msg);
    }

    DeliveredIds delivered() {
        return delivered;
    }

    /** A message the coordinator (this node) handed to Ignite itself: a copy of it in the log is not delivered. */
    void markDelivered(DiscoverySpiCustomMessage msg) {
        delivered.add(msg);
    }

    /** Starts from a join: the cluster and the topology of the join result. */
    void begin(UUID clusterId, Topology initial) {
        this.clusterId = clusterId;
        this.topology = initial;
    }

    /** Events up to {@code eventId}, this node's own join, are in the topology it began with. */
    void resumeAfter(long eventId) {
        lastEventId = eventId;
    }

    /**
     * Applies the events of one entry that are newer than the last applied.
     *
     * @param predelivered Custom messages the coordinator already handed to Ignite, by event id, or
     *      decoded objects to use instead of unmarshalling (see {@link Predecoded}).
     */
    Applied apply(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> predelivered)
        throws Exception {
        Applied applied = new Applied();
        List<Long> customIds = new ArrayList<>();

        if (clusterId == null)
            clusterId = batch.clusterId();

        readAhead(seq, path, batch, predelivered);

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

        applied.entries = applied.events > 0 ? 1 : 0;

        if (!batch.events().isEmpty()) {
            long last = EventIds.absolute(seq, batch.events().get(batch.events().size() - 1).eventId());

            untrimmed.add(new LogEntry(seq, path, last, customIds, UntrimmedEntries.departed(batch),
                UntrimmedEntries.joined(batch), manifest));
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

    /**
     * Reads the data znodes of an entry's joins together, before they are applied: an entry of a batch of joins then
     * costs this node one round trip for their data, not one per join (issue 20).
     */
    private void readAhead(long seq, String path, EventBatch batch, Map<Long, Predecoded> predelivered) {
        List<UUID> ids = new ArrayList<>();

        for (DiscoveryEvent e : batch.events()) {
            if (e.kind() != EventKind.NODE_JOINED || EventIds.absolute(seq, e.eventId()) <= lastEventId
                || e.nodeId().equals(local.id()))
                continue;

            Predecoded pre = predelivered.get(e.eventId());

            if (pre != null && pre.node != null)
                continue;

            try {
                JoinedEventData d = JoinedEventData.decode(e.data(), path + " event " + e.eventId());

                if (d.joinData == null || NodeRecord.decode(d.record, path + " node record").byReference())
                    ids.add(e.nodeId());
            }
            catch (RuntimeException corrupt) {
                // Named when the event is applied.
            }
        }

        readAhead = ids.size() > 1 ? nodeData.readAhead(ids) : Collections.emptyMap();
    }

    /** Like a corrupt entry, a join whose node cannot be read stops this node: skipping it would fork its view. */
    private NodeData readNodeData(UUID id, String path) throws Exception {
        ZkStore.Payload ahead = readAhead.remove(id);

        try {
            return ahead != null ? nodeData.decode(id, ahead) : nodeData.read(id, path + " join of " + id);
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

        DiscoverySpiCustomMessage msg;

        try {
            msg = pre != null ? pre.msg : objects.unmarshal(e.data(), path + " custom event " + id);
        }
        catch (IgniteSpiException unreadable) {
            // A message this node cannot read (its class is missing here, say) is skipped here alone, as
            // TcpDiscoverySpi does: the entry around it was read, so the order is intact, and the nodes that can
            // read it deliver it. Stopping here instead would stop every node that lacks the class, coordinators too.
            log.error("Skipping custom event " + id + " in " + path + " from node " + e.nodeId() + ": this node cannot"
                + " read it, the others deliver it (" + unreadable.getMessage() + ")");
            metrics.onUndeliverable();

            return false;
        }

        // Every node applies the same log, so every node that saw the first copy skips the second alike. The
        // coordinator's own entry of a message it delivered already is the first copy, checked before it was written.
        boolean predelivered = pre != null && pre.delivered;

        if (e.kind() == EventKind.CUSTOM && !delivered.add(msg) && !predelivered) {
            // Logged after all, if this node delivered it as coordinator and its commit seemed to fail: the commit
            // landed, its reply and the check of what landed lost. A later term need not take it again.
            unlogged.remove(msg);

            log.warning("Skipping custom event " + id + " in " + path + ": its message " + DeliveredIds.id(msg)
                + " was delivered already (a send replayed after a lost connection is written twice)");

            return false;
        }

        if (pre == null || !pre.delivered)
            notifier.custom(topology.topVer(), sender, topology.nodes(), msg);

        // An ack message is never acked in turn (Ignite builds a fresh ack from some acks, without end).
        if (!local.isClient() && e.kind() == EventKind.CUSTOM)
            untrimmed.awaitAck(id, msg);

        if (e.kind() == EventKind.CUSTOM && awaitsAck(msg)) {
            applied.ackAwaited = true;
            untrimmed.ackDue(id);
        }

        return true;
    }

    /**
     * @return Whether Ignite waits for an ack message after this one: then it waits on every node's ack. Ignite's
     *      {@code ackMessage()} only builds the ack from the message's fields; if one cannot say, ack soon to be safe.
     */
    static boolean awaitsAck(DiscoverySpiCustomMessage msg) {
        try {
            return msg.ackMessage() != null;
        }
        catch (RuntimeException e) {
            return true;
        }
    }
}
