package io.zkion.discovery.codec.event;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * One discovery event, as the codec sees it: a kind, its place in the order, the node it is about
 * and an opaque payload. The payload is bytes the SPI marshalled (a node record, a custom message);
 * the codec never looks inside it.
 */
public final class DiscoveryEvent implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final byte[] NO_DATA = new byte[0];

    private final EventKind kind;
    private final long eventId;
    private final long topVer;
    private final UUID nodeId;
    private final byte[] data;

    public DiscoveryEvent(EventKind kind, long eventId, long topVer, UUID nodeId, byte[] data) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.eventId = eventId;
        this.topVer = topVer;
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.data = data == null ? NO_DATA : data;
    }

    /** A node joined; {@code nodeRecord} is its record, encoded once at join. Its order is {@code topVer}. */
    public static DiscoveryEvent joined(long eventId, long topVer, UUID nodeId, byte[] nodeRecord) {
        return new DiscoveryEvent(EventKind.NODE_JOINED, eventId, topVer, nodeId, nodeRecord);
    }

    public static DiscoveryEvent left(long eventId, long topVer, UUID nodeId) {
        return new DiscoveryEvent(EventKind.NODE_LEFT, eventId, topVer, nodeId, null);
    }

    public static DiscoveryEvent failed(long eventId, long topVer, UUID nodeId) {
        return new DiscoveryEvent(EventKind.NODE_FAILED, eventId, topVer, nodeId, null);
    }

    /** A custom message sent by {@code senderId}; {@code msg} is the marshalled message. */
    public static DiscoveryEvent custom(long eventId, long topVer, UUID senderId, byte[] msg) {
        return new DiscoveryEvent(EventKind.CUSTOM, eventId, topVer, senderId, msg);
    }

    /** The ack of a custom message, sent once every node processed it. */
    public static DiscoveryEvent ack(long eventId, long topVer, UUID senderId, byte[] ackMsg) {
        return new DiscoveryEvent(EventKind.ACK, eventId, topVer, senderId, ackMsg);
    }

    public EventKind kind() {
        return kind;
    }

    public long eventId() {
        return eventId;
    }

    public long topVer() {
        return topVer;
    }

    public UUID nodeId() {
        return nodeId;
    }

    /** @return The payload; not copied, do not modify. */
    public byte[] data() {
        return data;
    }

    @Override public boolean equals(Object o) {
        if (this == o)
            return true;

        if (!(o instanceof DiscoveryEvent))
            return false;

        DiscoveryEvent e = (DiscoveryEvent)o;

        return kind == e.kind && eventId == e.eventId && topVer == e.topVer && nodeId.equals(e.nodeId)
            && Arrays.equals(data, e.data);
    }

    @Override public int hashCode() {
        return Objects.hash(kind, eventId, topVer, nodeId) * 31 + Arrays.hashCode(data);
    }

    @Override public String toString() {
        return "DiscoveryEvent[" + kind.symbol() + ", id=" + eventId + ", topVer=" + topVer + ", node=" + nodeId
            + ", data=" + data.length + "B]";
    }
}
