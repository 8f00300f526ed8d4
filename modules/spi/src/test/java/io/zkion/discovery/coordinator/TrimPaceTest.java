package io.zkion.discovery.coordinator;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * How many trimmable entries a step may delete ({@link TrimPace}). At 1,000 members, acks by count made about 1,000
 * entries trimmable at once, and their deletion, 128 to a multi, sent ZooKeeper's notifications of them ahead of the
 * stream's next entries for seconds. While entries keep coming, each earns a few deletions; a message whose ack
 * Ignite awaits, and a log that stood still for a second, are trimmed at once.
 */
public class TrimPaceTest {
    private static final int MAX = 128;

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final TrimPace pace = new TrimPace(now::get);

    /**
     * A backlog of 1,000 trimmable entries under a stream at 1,000 members: four deletions an entry logged, so it is
     * gone within 250 entries, while the stream's own entries wait for the members' next acks by count.
     */
    @Test public void aBacklogUnderAStreamIsDeletedAFewEntriesPerEntryLogged() {
        assertEquals(4, TrimPace.perEntry(1_000));

        int entries = 1_000;
        int trimmable = 1_000;
        long newest = 1_000;
        int steps = 0;

        pace.step(entries, newest, 1_000);
        assertEquals("nothing earned yet", 0, pace.allowance(() -> false, MAX));

        while (trimmable > 0) {
            now.addAndGet(50);
            pace.step(++entries, ++newest, 1_000);

            int allowed = pace.allowance(() -> false, MAX);

            assertEquals("step " + steps, 4, allowed);

            pace.spent(allowed);
            entries -= allowed;
            trimmable -= allowed;
            steps++;
        }

        assertEquals(250, steps);
        assertEquals("the stream's entries", 250, entries);
    }

    /**
     * Entries logged while nothing could be trimmed (the members' acks by count still to come) earn nothing: at 1,000
     * members a step that carried their earnings over deleted a full multi of 128 as soon as the acks came, the burst
     * this class is there to prevent.
     */
    @Test public void whatAStepDoesNotSpendIsLost() {
        pace.step(0, 0, 1_000);

        for (int i = 1; i <= 1_000; i++) { // Steps that trim nothing: acks not in yet.
            now.addAndGet(50);
            pace.step(i, i, 1_000);
        }

        assertEquals("only the last entry's earnings", 4, pace.allowance(() -> false, MAX));

        pace.step(1_000, 1_000, 1_000); // A step between entries (an ack, a tick).
        assertEquals(0, pace.allowance(() -> false, MAX));

        pace.step(1_003, 1_003, 1_000); // Three entries in one step.
        assertEquals(12, pace.allowance(() -> false, MAX));
    }

    /** Never more than one multi's worth: a step after a burst of entries does not delete a burst of its own. */
    @Test public void aStepDeletesAtMostOneMulti() {
        pace.step(0, 0, 1_000);
        pace.step(1_000, 1_000, 1_000);

        assertEquals(MAX, pace.allowance(() -> false, MAX));
    }

    /**
     * An awaited ack is logged with the trim: it does not wait for a stream to earn its entries. Nor does a rollover's
     * drain, which holds joins and queued messages: the Trimmer asks unpaced for both.
     */
    @Test public void anAwaitedAckOrADrainIsNotPaced() {
        pace.step(1_000, 1_000, 1_000);

        assertEquals(MAX, pace.allowance(() -> true, MAX));
    }

    /**
     * Whether an awaited ack is among the trimmable entries takes a scan of the log: asked only when the pace would
     * hold entries back, not where an entry earns a multi (a cluster of up to 32 members) nor once the log stood still.
     */
    @Test public void whetherToPaceIsAskedOnlyWhenThePaceWouldHoldBack() {
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier awaited = () -> asked.incrementAndGet() < 0;

        pace.step(0, 0, 16);
        pace.step(1, 1, 16); // 256 earned.
        assertEquals(MAX, pace.allowance(awaited, MAX));

        now.addAndGet(TrimPace.QUIET_MS);
        pace.step(1, 1, 1_000);
        assertEquals(MAX, pace.allowance(awaited, MAX));
        assertEquals(0, asked.get());

        pace.step(2, 2, 1_000); // 4 earned.
        assertEquals(4, pace.allowance(awaited, MAX));
        assertEquals(1, asked.get());
    }

    /** Once no entry came for a second, nothing is paced: the notifications then delay nobody's delivery. */
    @Test public void aLogThatStoodStillIsTrimmedWhole() {
        pace.step(1_000, 1_000, 1_000);

        now.addAndGet(TrimPace.QUIET_MS - 1);
        pace.step(1_000, 1_000, 1_000);
        assertEquals(0, pace.allowance(() -> false, MAX));
        assertEquals(1, pace.msUntilQuiet());

        now.addAndGet(1);
        pace.step(1_000, 1_000, 1_000);
        assertEquals(0, pace.msUntilQuiet());
        assertEquals(MAX, pace.allowance(() -> false, MAX));

        now.addAndGet(10);
        pace.step(1_001, 1_001, 1_000); // A new entry: paced again, for another second.
        assertEquals(4, pace.allowance(() -> false, MAX));
        assertEquals(TrimPace.QUIET_MS, pace.msUntilQuiet());
    }

    /**
     * However large the cluster, an entry logged earns two deletions: the backlog shrinks by one an entry. With one,
     * a cluster of 4,096 members or more would have added a backlog of N entries every N entries and never shrunk it.
     */
    @Test public void aLargeClusterStillShrinksItsBacklog() {
        assertEquals(2, TrimPace.perEntry(4_096));
        assertEquals(2, TrimPace.perEntry(100_000));
        assertEquals(40, TrimPace.perEntry(100));
        assertEquals(1_365, TrimPace.perEntry(3));
    }
}
