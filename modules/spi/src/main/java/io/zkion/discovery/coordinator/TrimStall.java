package io.zkion.discovery.coordinator;

import java.util.function.LongSupplier;
import io.zkion.discovery.internal.AckPolicy;

/**
 * Whether the oldest log entry waits longer for its trim than members take to ack it. Then it may be waiting on an
 * ack the coordinator's cache of alive/ has not seen, and the trimmer reads the lagging acks directly: at most once
 * every {@link #STALL_MS}, however often steps come.
 * <p>
 * When a message awaits its ack, or the log is long, members ack at once ({@link AckPolicy}): the oldest entry
 * stalls {@link #STALL_MS} after acks became due, not after it became the oldest. Under a stream of plain messages
 * the oldest entry is often seconds old when a message that awaits its ack comes: timed from the entry, every such
 * message had the coordinator read all N acks directly, one by one, before the acks had even been written (at 1,000
 * members, 1,000 reads and 700 ms in one step, a message). Otherwise members ack once the log stood still for an
 * idle period, which they check every period: the entry stalls only when the newest entry is older than two periods and {@link #STALL_MS}.
 * Under a steady stream that is never, and rightly: nobody is due to ack then.
 */
final class TrimStall {
    /** Longer than members take to ack when acks are due at once. */
    static final long STALL_MS = 3_000;

    private long oldestSeq = -1;
    private long oldestSince;
    private long newestSeq = -1;
    private long newestSince;
    /** Whether acks became due while the oldest entry was the oldest, and when they first did: never before it. */
    private boolean due;
    private long dueSince;
    private long lastStall;

    /** Milliseconds, as the wall clock gives them unless a test steps its own. */
    private final LongSupplier clock;

    TrimStall() {
        this(System::currentTimeMillis);
    }

    TrimStall(LongSupplier clock) {
        this.clock = clock;
        this.lastStall = clock.getAsLong() - STALL_MS;
    }

    /**
     * @param oldest The oldest entry's sequence number, -1 for none.
     * @param newest The newest entry's.
     * @param acksDue Whether members ack at once now: a message awaits its ack, or the log is long.
     * @return Whether to read the lagging acks directly now.
     */
    boolean stalled(long oldest, long newest, boolean acksDue) {
        long now = clock.getAsLong();

        if (oldest != oldestSeq) {
            oldestSeq = oldest;
            oldestSince = now;
            due = false;
        }

        if (newest != newestSeq) {
            newestSeq = newest;
            newestSince = now;
        }

        // Kept until the oldest entry changes: a "log is long" rule that flaps as members come and go must not put
        // the stall off for ever.
        if (acksDue && !due) {
            due = true;
            dueSince = now;
        }

        boolean late = acksDue ? now - dueSince > STALL_MS
            : now - newestSince > 2 * AckPolicy.idleMs() + STALL_MS;

        if (oldest < 0 || !late || now - lastStall < STALL_MS)
            return false;

        lastStall = now;

        return true;
    }

    long sinceMs() {
        return clock.getAsLong() - oldestSince;
    }
}
