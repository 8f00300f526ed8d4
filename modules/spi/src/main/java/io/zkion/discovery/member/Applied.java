package io.zkion.discovery.member;

/** A tally of the events one pass over the log applied. */
public final class Applied {
    public int events;

    /** Whether a delivered message awaits its ack: Ignite sends the ack once every node has acked it. */
    public boolean ackAwaited;

    public void add(Applied o) {
        events += o.events;
        ackAwaited |= o.ackAwaited;
    }
}
