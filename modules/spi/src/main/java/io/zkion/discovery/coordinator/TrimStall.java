package io.zkion.discovery.coordinator;

import io.zkion.discovery.internal.AckPolicy;

/**
 * How long the oldest log entry has waited for its trim. An entry that waits longer than members take to ack may be
 * waiting on an ack the coordinator's cache of alive/ has not seen, so the trimmer then reads the lagging acks
 * directly (at most once per step: a step comes every 2 s when nothing happens). Members ack within moments when a
 * message awaits its ack or the log is long ({@link AckPolicy}); otherwise once the log stood still a while.
 */
final class TrimStall {
    /** Longer than members take to ack when acks are due at once. */
    static final long STALL_MS = 3_000;


    private long seq = -1;
    private long since;

    /**
     * @param oldestSeq The oldest entry, -1 for none.
     * @param acksDue Whether members ack at once now: a message awaits its ack, or the log is long.
     * @return Whether the oldest entry has waited longer than members take to ack it.
     */
    boolean stalled(long oldestSeq, boolean acksDue) {
        long now = System.currentTimeMillis();

        if (oldestSeq != seq) {
            seq = oldestSeq;
            since = now;
        }

        // Members that ack a log which stood still check every idle period, so they take up to two.
        return oldestSeq >= 0 && now - since > (acksDue ? STALL_MS : 2 * AckPolicy.idleMs() + STALL_MS);
    }

    long sinceMs() {
        return System.currentTimeMillis() - since;
    }
}
