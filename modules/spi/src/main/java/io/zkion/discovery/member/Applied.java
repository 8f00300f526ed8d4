package io.zkion.discovery.member;

/** A tally of the events one pass over the log applied. */
public final class Applied {
    public int events;

    /** The entries that had events to apply, and their bytes as read (none for the coordinator's own entries). */
    public int entries;
    public long bytes;

    /** Whether a delivered message awaits its ack: Ignite sends the ack once every node has acked it. */
    public boolean ackAwaited;

    public void add(Applied o) {
        events += o.events;
        entries += o.entries;
        bytes += o.bytes;
        ackAwaited |= o.ackAwaited;
    }
}
