package io.zkion.discovery.coordinator;

import java.util.concurrent.atomic.AtomicLong;
import io.zkion.discovery.internal.AckPolicy;
import org.junit.Test;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * When the coordinator reads lagging acks directly instead of from its cache. Under a steady stream of plain messages
 * nobody is due to ack, however old the oldest entry: reading every member's ack there cost the coordinator N reads
 * a step (at 300 members, about 140 reads per message). With an ack due the oldest entry stalls after 3 s; a log
 * that stood still, after two idle periods and 3 s; and never more often than every 3 s.
 */
public class TrimStallTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final TrimStall stall = new TrimStall(now::get);

    @Test public void aSteadyStreamOfPlainMessagesNeverStalls() {
        long seq = 10;

        for (int i = 0; i < 1_000; i++) { // 100 s of a message every 100 ms, the oldest entry never trimmed.
            assertFalse("at " + i, stall.stalled(1, seq++, false));
            now.addAndGet(100);
        }
    }

    @Test public void aLogThatStoodStillStallsAfterTwoIdlePeriodsAndThreeSeconds() {
        assertFalse(stall.stalled(1, 5, false));

        now.addAndGet(2 * AckPolicy.idleMs() + TrimStall.STALL_MS);
        assertFalse(stall.stalled(1, 5, false));

        now.addAndGet(1);
        assertTrue(stall.stalled(1, 5, false));
    }

    /**
     * The oldest entry waited long for lazy acks when a message that awaits its ack came: members had not had 3 s to ack
     * it yet. Timed from the entry, this stalled at once (fails so without the change), and the coordinator read every
     * member's ack directly before any was written.
     */
    @Test public void anAckThatBecameDueLateStallsThreeSecondsAfterItBecameDue() {
        assertFalse(stall.stalled(1, 5, false));

        now.addAndGet(10_000); // Plain messages: nobody due to ack the oldest entry.
        assertFalse(stall.stalled(1, 6, false));

        now.addAndGet(100); // The message that awaits its ack.
        assertFalse("as acks became due", stall.stalled(1, 7, true));

        now.addAndGet(TrimStall.STALL_MS);
        assertFalse("3 s after", stall.stalled(1, 7, true));

        now.addAndGet(1);
        assertTrue("past 3 s", stall.stalled(1, 7, true));
    }

    /** Acks due, then not (the log's length crossing its mark as members come and go), then due again: no later. */
    @Test public void acksDueOnAndOffForTheSameOldestEntryStallThreeSecondsAfterTheyFirstBecameDue() {
        assertFalse(stall.stalled(1, 5, true));

        for (int i = 0; i < 6; i++) {
            now.addAndGet(500);
            assertFalse("at " + i, stall.stalled(1, 5, i % 2 == 0));
        }

        now.addAndGet(1);
        assertTrue(stall.stalled(1, 5, true));
    }

    @Test public void anEntryWithAnAckDueStallsAfterThreeSecondsAndReadsComeAtMostEveryThree() {
        assertFalse(stall.stalled(1, 5, true));

        now.addAndGet(TrimStall.STALL_MS + 1);
        assertTrue(stall.stalled(1, 6, true));

        now.addAndGet(1_000);
        assertFalse("a second later", stall.stalled(1, 7, true));

        now.addAndGet(TrimStall.STALL_MS);
        assertTrue(stall.stalled(1, 8, true));
    }
}
