package io.zkion.discovery.coordinator;

/**
 * How long the oldest log entry has waited for its trim. Members ack within moments of reading an entry; an entry that
 * waits longer than {@link #STALL_MS} may be waiting on an ack the coordinator's cache of alive/ has not seen, so the
 * trimmer then reads the lagging acks directly (at most once per step: a step comes every 2 s when nothing happens).
 */
final class TrimStall {
    /** Longer than members take to ack (they ack at once when Ignite awaits it, else within a second or so). */
    static final long STALL_MS = 3_000;

    private long seq = -1;
    private long since;

    /** @return Whether the entry {@code oldestSeq} (-1: none) has been the oldest for longer than {@link #STALL_MS}. */
    boolean stalled(long oldestSeq) {
        long now = System.currentTimeMillis();

        if (oldestSeq != seq) {
            seq = oldestSeq;
            since = now;
        }

        return oldestSeq >= 0 && now - since > STALL_MS;
    }

    long sinceMs() {
        return System.currentTimeMillis() - since;
    }
}
