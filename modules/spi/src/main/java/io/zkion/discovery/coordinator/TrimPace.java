package io.zkion.discovery.coordinator;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import io.zkion.discovery.internal.TestSeam;

/**
 * How many trimmable entries a step may delete while entries keep coming.
 * <p>
 * Every member watches log/ recursively, so each deleted entry costs ZooKeeper one notification a member, as its
 * creation did. Members ack plain messages by count ({@link io.zkion.discovery.internal.AckPolicy}), all at about
 * the same entry, so at 1,000 members about 1,000 entries became trimmable at once. Deleted 128 to a multi, each
 * multi sent 128,000 notifications, and the entries logged behind them reached the members seconds late (the scale
 * run's stream at 1,000 members: steps of 1.6 to 4.4 s, about 15 ms a deleted entry).
 * <p>
 * So each entry logged earns the next step {@link #NOTIFICATIONS_PER_ENTRY} / N deletions (at least 2, so that a
 * backlog always shrinks while a stream goes on), and a step deletes no more than the entries logged since the step
 * before earned it: a backlog's notifications go out between the new entries' instead of ahead of them. What a step
 * does not spend is lost, so entries logged while nothing could be trimmed (the acks still to come) earn nothing.
 * Nothing is held back when that would cost more than it saves: an entry whose message's ack Ignite awaits is
 * trimmed at once (the ack is logged with the trim), and so is everything while the log drains for a rollover (its
 * gate closed, no delivery waits behind the notifications) and once the coordinator saw no new entry for
 * {@link #QUIET_MS}. Nothing schedules a step for that moment: when a stream stops, what it left is trimmed by the
 * next step, at the latest the coordinator's tick 2 s on, and meanwhile it delays no delivery.
 */
final class TrimPace {
    /** Delete notifications the backlog may cost per entry logged: at 1,000 members, four entries' own fan-out. */
    static final int NOTIFICATIONS_PER_ENTRY = 4_096;

    /** How long after the newest entry the log counts as standing still, and trims are no longer paced. */
    static final long QUIET_MS = 1_000;

    /** {@link #NOTIFICATIONS_PER_ENTRY}, unless a test of a few nodes sets it low enough to pace them. */
    private static volatile int notificationsPerEntry = NOTIFICATIONS_PER_ENTRY;

    /** Milliseconds, as the wall clock gives them unless a test steps its own. */
    private final LongSupplier clock;

    private long newestSeq = -1;
    private long newestSince;

    /** Untrimmed entries after the last step, -1 before the first: what grew since was logged since. */
    private int entriesAfter = -1;

    /** Deletions the entries logged since the last step earned this one. */
    private int earned;

    TrimPace() {
        this(System::currentTimeMillis);
    }

    TrimPace(LongSupplier clock) {
        this.clock = clock;
    }

    /** Sets {@link #NOTIFICATIONS_PER_ENTRY} for the coordinators of this JVM; 0 restores it. */
    @TestSeam
    static void notificationsPerEntryForTest(int n) {
        notificationsPerEntry = n > 0 ? n : NOTIFICATIONS_PER_ENTRY;
    }

    /** @return How many entries one logged entry earns the trim in a cluster of {@code members}. */
    static int perEntry(int members) {
        return Math.max(2, notificationsPerEntry / Math.max(1, members));
    }

    /**
     * Notes a step of the coordinator; every step, whether it can trim or not.
     *
     * @param entries Untrimmed entries now.
     * @param newest The newest entry's sequence number.
     * @param members Members of the cluster, each of which watches log/.
     */
    void step(int entries, long newest, int members) {
        long now = clock.getAsLong();

        if (newest != newestSeq) {
            newestSeq = newest;
            newestSince = now;
        }

        long logged = entriesAfter < 0 ? 0 : Math.max(0, entries - entriesAfter);

        entriesAfter = entries;
        earned = (int)Math.min(Integer.MAX_VALUE, logged * perEntry(members));
    }

    /**
     * @param unpaced Whether nothing is to be held back now: an entry trimmable now holds a message whose ack Ignite
     *      awaits, or the log drains for a rollover. Asked only when the pace would hold entries back, since the
     *      answer may take a scan of the log: not in a log that stands still, nor where an entry earns a multi.
     * @param max The most one step deletes.
     * @return How many trimmable entries this step may delete.
     */
    int allowance(BooleanSupplier unpaced, int max) {
        return msUntilQuiet() == 0 || earned >= max || unpaced.getAsBoolean() ? max : earned;
    }

    /** @return In how many milliseconds the log counts as standing still, if no entry comes meanwhile; 0 if it does. */
    long msUntilQuiet() {
        return Math.max(0, QUIET_MS - (clock.getAsLong() - newestSince));
    }

    /** Counts {@code n} entries deleted by this step. */
    void spent(int n) {
        entriesAfter = Math.max(0, entriesAfter - n);
    }
}
