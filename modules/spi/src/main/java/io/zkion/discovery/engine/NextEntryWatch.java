package io.zkion.discovery.engine;

import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * A member's watch on the log: a one-shot {@code exists} on the name of the next entry, set again past each entry it
 * reads, and one on the first entry of the next log epoch (a rollover). ZooKeeper numbers the log's entries without
 * holes ({@code LogSequenceFactsTest}), so the next entry's name is known before it is written.
 * <p>
 * Why not a recursive watch on {@code log/}: that one also hears every trim, and at 1,000 members a trim's
 * notifications cost more than the entry's own (docs/benchmarks.md, the log floor's variants).
 * <p>
 * The watch on the next entry is set before any entry before it is read: an entry created from then on is announced,
 * and one this node knows was created and cannot read was trimmed past it (a gap). A cycle late to set it, and a
 * listing now and then, list the log whole, which finds an entry trimmed unread there ({@link LogWatch}).
 */
final class NextEntryWatch {
    /** How long a cycle waits for ZooKeeper's answer to setting a watch, past the reads sent after it. */
    private static final long ANSWER_MS = 30_000;

    private final ZkStore store;
    private final ZkPaths paths;
    private final Runnable changed;

    /** The watcher of this start; one of an earlier start reports nothing. */
    private volatile EntryWatcher current;

    /** The highest position announced or found created; -1 before any. Raised by the watcher and the cycle both. */
    private final AtomicLong created = new AtomicLong(-1);

    /** Set by the first entry of the next epoch: a rollover, which the cycle lists the log for. */
    private volatile boolean epochTurned;

    /** When an entry was announced that no cycle has read yet, by {@link System#nanoTime}; 0 if none. */
    private volatile long announcedAt;

    /** The positions the watches stand on, on the discovery thread; -1 if none. */
    private long armedAt = -1;
    private long armedEpochStart = -1;

    NextEntryWatch(ZkStore store, Runnable changed) {
        this.store = store;
        this.paths = store.paths();
        this.changed = changed;
    }

    /** Starts anew: no watch stands, and nothing is announced. */
    void start() {
        current = new EntryWatcher();
        created.set(-1);
        epochTurned = false;
        announcedAt = 0;
        armedAt = -1;
        armedEpochStart = -1;
    }

    /** Reports nothing more; the watches standing in ZooKeeper fire once into nothing, or end with the session. */
    void close() {
        current = null;
    }

    /** @return Whether an entry was announced more than {@code ms} ago and no cycle has read it since. */
    boolean announcedLongerAgoThan(long ms) {
        long at = announcedAt;

        return at != 0 && System.nanoTime() - at > ms * 1_000_000L;
    }

    /** @return Whether the first entry of the next log epoch was created since the last call. */
    boolean takeEpochTurned() {
        boolean t = epochTurned;

        epochTurned = false;

        return t;
    }

    /** @return The last position known created, announced or found there: at least {@code last}. */
    long createdThrough(long last) {
        return Math.max(last, created.get());
    }

    /**
     * Sets the watch past {@code through}, the entries up to it to be read next, and the one on the next epoch's first
     * entry. The answer is not awaited: the reads that follow on the same session are answered after it, so the watch
     * stands before any of them returns, in one round trip, not two.
     *
     * @return What was sent, for {@link #answered}; null if the watch on that name stands already (it has not fired:
     *      had it, the entry would count as created).
     */
    Armed arm(long through) throws Exception {
        EntryWatcher w = current;

        if (w == null || through < 0)
            return null;

        long epochStart = ZkPaths.position(ZkPaths.epochOf(through) + 1, 0);

        // Marked set only once ZooKeeper answered: a call that failed set nothing the next cycle could count on.
        if (armedEpochStart != epochStart) {
            boolean turned = store.watchCreation(paths.logEntry(epochStart), w).get(ANSWER_MS, MILLISECONDS) != null;

            armedEpochStart = epochStart;

            if (turned) {
                epochTurned = true;
                changed.run();
            }
        }

        long next = through + 1;

        return armedAt == next ? null : new Armed(next, store.watchCreation(paths.logEntry(next), w));
    }

    /** Takes ZooKeeper's answer to {@link #arm}, once the reads sent after it returned; fails if there was none. */
    void answered(Armed a) throws Exception {
        Stat stat;

        try {
            stat = a.answer.get(ANSWER_MS, MILLISECONDS);
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception)e.getCause() : e;
        }

        armedAt = a.position;

        // There already (a burst): the next cycle reads it and sets the watch past it. The watch now on it fires as it
        // is trimmed, and reports nothing then.
        if (stat != null) {
            created.accumulateAndGet(a.position, Math::max);
            changed.run();
        }
    }

    /** A watch sent, and ZooKeeper's answer to come. */
    static final class Armed {
        final long position;
        final CompletableFuture<Stat> answer;

        Armed(long position, CompletableFuture<Stat> answer) {
            this.position = position;
            this.answer = answer;
        }
    }

    /** Notes what a cycle read: {@code last} is the last entry applied. */
    void readThrough(long last) {
        // Entries announced meanwhile are as late as from now: a steady stream is not a late cycle.
        announcedAt = created.get() <= last ? 0 : System.nanoTime();
    }

    private final class EntryWatcher implements Watcher {
        @Override public void process(WatchedEvent e) {
            if (current != this || e.getType() != Event.EventType.NodeCreated || e.getPath() == null
                || !e.getPath().startsWith(paths.log + "/"))
                return; // A trim of an entry found there, or a connection's news: SessionLoss hears those.

            long pos;

            try {
                pos = ZkPaths.sequence(e.getPath().substring(paths.log.length() + 1));
            }
            catch (RuntimeException notAnEntry) {
                return;
            }

            if (ZkPaths.sequenceOf(pos) == 0 && ZkPaths.epochOf(pos) > 0)
                epochTurned = true;
            else
                created.accumulateAndGet(pos, Math::max);

            if (announcedAt == 0)
                announcedAt = System.nanoTime();

            changed.run();
        }
    }
}
