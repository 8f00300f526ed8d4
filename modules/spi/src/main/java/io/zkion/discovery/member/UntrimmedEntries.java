package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventKind;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * The entries a node has applied and ZooKeeper still holds, with the messages of them whose acks are due: what a
 * coordinator needs to trim the log, to log the acks and to remove the data of nodes the trimmed entries took out.
 */
final class UntrimmedEntries {
    private final EntriesBySeq entries = new EntriesBySeq();

    /** Custom messages delivered and not yet trimmed, by event id: their acks are due once all nodes have them. */
    private final EventIdMap<DiscoverySpiCustomMessage> pendingAcks = new EventIdMap<>();

    /** Event ids of the messages not yet trimmed that Ignite awaits the acks of: members ack those at once. */
    private final TreeSet<Long> acksDue = new TreeSet<>();

    EntriesBySeq all() {
        return entries;
    }

    boolean contains(long seq) {
        return entries.contains(seq);
    }

    void add(LogEntry e) {
        entries.put(e);
    }

    /** Adds a takeover's older entries at once: each would otherwise go in front of all the rest in turn. */
    void addAll(List<LogEntry> older) {
        entries.putAll(older);
    }

    void awaitAck(long eventId, DiscoverySpiCustomMessage msg) {
        pendingAcks.put(eventId, msg);
    }

    DiscoverySpiCustomMessage pendingAck(long eventId) {
        return pendingAcks.get(eventId);
    }

    /** Notes a message Ignite awaits the ack of: every member acks it at once. */
    void ackDue(long eventId) {
        acksDue.add(eventId);
    }

    boolean acksDue() {
        return !acksDue.isEmpty();
    }

    /** Forgets a trimmed entry, and the messages of it that awaited their acks. */
    void forget(long seq) {
        LogEntry e = entries.remove(seq);

        if (e != null) {
            pendingAcks.removeUpTo(e.lastEventId);
            acksDue.headSet(e.lastEventId, true).clear();
        }
    }

    /** Forgets every entry that a fresh listing of the log no longer shows. */
    void forgetAllBut(Set<Long> present) {
        for (LogEntry e : new ArrayList<>(entries.inOrder())) {
            if (!present.contains(e.seq))
                forget(e.seq);
        }
    }

    /** @return Nodes taken out of the topology by entries not trimmed yet: some member may still need their data. */
    Set<UUID> departed() {
        Set<UUID> out = new HashSet<>();

        for (LogEntry e : entries.inOrder())
            out.addAll(e.departed);

        return out;
    }

    /** @return The nodes {@code b} takes out of the topology. */
    static List<UUID> departed(EventBatch b) {
        return nodes(b, EnumSet.of(EventKind.NODE_LEFT, EventKind.NODE_FAILED));
    }

    static List<UUID> joined(EventBatch b) {
        return nodes(b, EnumSet.of(EventKind.NODE_JOINED));
    }

    /** @return The nodes of {@code b}'s events of these kinds. */
    private static List<UUID> nodes(EventBatch b, Set<EventKind> kinds) {
        List<UUID> out = null;

        for (DiscoveryEvent e : b.events()) {
            if (kinds.contains(e.kind())) {
                if (out == null)
                    out = new ArrayList<>(1);

                out.add(e.nodeId());
            }
        }

        return out == null ? Collections.emptyList() : out;
    }
}
