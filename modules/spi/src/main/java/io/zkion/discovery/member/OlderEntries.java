package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventKind;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.log.EventIds;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.lang.IgniteUuid;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * Entries written before this node joined, which it never applied, taken over when it becomes coordinator: so that
 * it trims them, and logs the acks of their custom messages. The nodes that delivered those messages wait for the
 * acks (binary metadata, mapping proposals, continuous queries, metastorage), and only the coordinator logs them.
 */
final class OlderEntries {
    /** One entry to take over, as read from the log. */
    static final class Older {
        final long seq;
        final String path;
        final byte[] manifest;
        /** Null when this node does not read the entry's format: then {@link #unreadable} says why. */
        final EventBatch batch;
        final String unreadable;

        Older(long seq, String path, byte[] manifest, EventBatch batch, String unreadable) {
            this.seq = seq;
            this.path = path;
            this.manifest = manifest;
            this.batch = batch;
            this.unreadable = unreadable;
        }
    }

    private final ObjectCodec objects;
    private final IgniteLogger log;
    private final EventApplier applier;
    private final UntrimmedEntries untrimmed;

    OlderEntries(ObjectCodec objects, IgniteLogger log, EventApplier applier, UntrimmedEntries untrimmed) {
        this.objects = objects;
        this.log = log;
        this.applier = applier;
        this.untrimmed = untrimmed;
    }

    /**
     * Registers {@code older} (in sequence order, all before every entry this node applied) with the acks of the
     * custom messages the cluster delivered in them. A member skipped a message whose sender was out of the topology
     * when it landed; the sender was in then if it still is, or if an entry after the message takes it out (entries
     * are trimmed in order, so none after an untrimmed one is gone).
     */
    void adopt(List<Older> older) {
        Topology top = applier.topology();
        Set<UUID> departedLater = untrimmed.departed();
        Set<IgniteUuid> acked = new HashSet<>();
        List<LogEntry> out = new ArrayList<>(older.size());

        // Newest first, so that departures after each message are known when it is reached.
        for (int i = older.size() - 1; i >= 0; i--) {
            Older o = older.get(i);

            if (o.batch == null) {
                out.add(unreadable(o));
                continue;
            }

            List<DiscoveryEvent> events = o.batch.events();
            List<Long> customIds = new ArrayList<>();

            for (int k = events.size() - 1; k >= 0; k--) {
                DiscoveryEvent e = events.get(k);

                if (e.kind() == EventKind.NODE_LEFT || e.kind() == EventKind.NODE_FAILED)
                    departedLater.add(e.nodeId());
                else if (e.kind() == EventKind.CUSTOM && (top.contains(e.nodeId()) || departedLater.contains(e.nodeId()))) {
                    long id = EventIds.absolute(o.seq, e.eventId());
                    DiscoverySpiCustomMessage msg = unmarshal(e, id, o.path);

                    if (msg != null && once(msg, acked)) {
                        untrimmed.awaitAck(id, msg);
                        customIds.add(0, id);
                    }
                }
            }

            long last = EventIds.absolute(o.seq, events.get(events.size() - 1).eventId());

            out.add(new LogEntry(o.seq, o.path, last, customIds, UntrimmedEntries.departed(o.batch),
                UntrimmedEntries.joined(o.batch), o.manifest));
        }

        untrimmed.addAll(out);
    }

    /**
     * An entry in a format the cluster wrote before this node joined, which this node does not read: taken over with
     * no custom messages, so that it is trimmed like the rest once everyone acked past it (any event of it has an id
     * below the next entry's). The acks of messages in it cannot be logged here; the error says so.
     */
    private LogEntry unreadable(Older o) {
        log.error("Taking over " + o.path + " without reading it: " + o.unreadable + ". It was written before this node"
            + " joined; the acks of any custom messages in it cannot be logged by this coordinator");

        return new LogEntry(o.seq, o.path, EventIds.absolute(o.seq, EventIds.PER_ENTRY - 1), new ArrayList<>(),
            new ArrayList<>(), new ArrayList<>(), o.manifest);
    }

    /**
     * @return Whether this message's ack is this entry's to log: not when a later copy of the same send is (one this
     *      node delivered itself, or a later adopted one; walked newest first, the later copy came first).
     */
    private boolean once(DiscoverySpiCustomMessage msg, Set<IgniteUuid> acked) {
        // Delivered by this node itself: not a copy others delivered before it joined, whose ack this node owes.
        if (applier.deliveredHere(msg))
            return false;

        IgniteUuid id = DeliveredIds.id(msg);

        return id == null || acked.add(id);
    }

    /** @return The message, or null if this node cannot read it: then its ack cannot be built here. */
    private DiscoverySpiCustomMessage unmarshal(DiscoveryEvent e, long id, String path) {
        try {
            return objects.unmarshal(e.data(), path + " custom event " + id);
        }
        catch (IgniteSpiException ex) {
            log.error("No ack can be logged for custom event " + id + " in " + path + ", which this node joined after"
                + " and cannot read: " + ex.getMessage(), ex);

            return null;
        }
    }
}
