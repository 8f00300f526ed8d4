package io.zkion.discovery.engine;

import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.member.Applied;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;

/**
 * The watches on log/ and, while this node coordinates, on alive/ (the others watch one alive znode:
 * {@link ElderWatch}), and what they reported since the last cycle. Each report schedules a cycle; the cycle takes
 * what was reported.
 * <p>
 * The log is read by name as {@link NextEntryWatch} announces entries, and listed whole only when that cannot be
 * trusted or is due: at start and after a reconnection, after a rollover, when a cycle came late to an announced
 * entry (an entry after it may have been created and trimmed while no watch stood on its name), every
 * {@link #LIST_EVERY} entries or so (to forget trimmed entries, which members no longer hear of), and every
 * {@link #LIST_IDLE_MS} whatever happened (a node failed out while its session lives finds out so at the latest).
 */
final class LogWatch {
    /** Entries read by name between two listings of the log, at least. */
    static final int LIST_EVERY = 64;

    /** The longest a member goes without listing the log. */
    static final long LIST_IDLE_MS = 15_000;

    /** How late a cycle may come to an announced entry before it lists the log instead of reading on by name. */
    static final long LATE_MS = 2_000;

    private final CuratorFramework client;
    private final ZkPaths paths;
    private final DiscoveryLoop loop;

    /** Whether the next cycle must list the log whole. Cleared before listing: news meanwhile sets it again. */
    private volatile boolean logDirty = true;

    private volatile boolean aliveDirty = true;
    private final ElderWatch elder;
    private final AliveWatch aliveWatch;
    private final NextEntryWatch next;

    /** The position applied at the last listing, the listing's length and its time: when the next one is due. */
    private long listedAt = -1;
    private int listedLength;
    private long listedNanos;

    LogWatch(EngineContext ctx, DiscoveryLoop loop) {
        this.client = ctx.client();
        this.paths = ctx.paths();
        this.loop = loop;
        this.elder = new ElderWatch(ctx, loop);
        this.aliveWatch = new AliveWatch(client, paths.alive, () -> {
            aliveDirty = true;
            loop.trigger();
        });
        this.next = new NextEntryWatch(ctx.store(), loop::trigger);
    }

    /** Starts the watches anew, with everything marked changed. */
    void start() {
        close();
        markAllDirty();
        next.start();
    }

    /**
     * Reads what the log holds past the last entry {@code member} applied: by name, or by a listing (see above).
     *
     * @return What was applied.
     */
    Applied catchUp(Member member) throws Exception {
        Applied applied = new Applied();

        if (next.takeEpochTurned() || next.announcedLongerAgoThan(LATE_MS) || listingDue(member.lastPosition()))
            logDirty = true;

        if (takeLogDirty()) {
            applied = member.catchUp();
            listedAt = member.lastPosition();
            listedLength = member.entries().size();
            listedNanos = System.nanoTime();
            loop.triggerAfter(LIST_IDLE_MS + 100);
        }

        // The watch stands past every entry read from here on before the first is read: see NextEntryWatch.
        long through = next.createdThrough(member.lastPosition());
        NextEntryWatch.Armed armed = next.arm(through);

        if (through > member.lastPosition() && !member.excluded())
            applied.add(member.readThrough(through));

        if (armed != null)
            next.answered(armed);

        next.readThrough(member.lastPosition());

        return applied;
    }

    private boolean listingDue(long last) {
        return last - listedAt >= Math.max(LIST_EVERY, listedLength)
            || System.nanoTime() - listedNanos >= LIST_IDLE_MS * 1_000_000L;
    }

    /** Watches the names under alive/ as the coordinator, which lists it; or stops, on giving up the role. */
    void watchAlive(boolean on) {
        if (on == aliveWatch.started())
            return;

        if (on) {
            aliveDirty = true; // What changed before the watch was set is listed, not announced.
            aliveWatch.start();
        }
        else
            aliveWatch.close();
    }

    void close() {
        next.close();
        aliveWatch.close();
    }

    /** Makes the next cycle list log/ and alive/ afresh, and walk to the elder again. */
    void markAllDirty() {
        logDirty = true;
        aliveDirty = true;
        elder.markDirty();
    }

    /** @return The elder of this node in {@code top}, watched: see {@link ElderWatch}. */
    UUID elder(Topology top) throws Exception {
        return elder.elder(top);
    }

    /** Makes the next cycle list alive/ afresh. */
    void markAliveDirty() {
        aliveDirty = true;
    }

    /** @return Whether the log must be listed whole. Cleared before listing, as alive/'s flag. */
    private boolean takeLogDirty() {
        if (!logDirty)
            return false;

        logDirty = false;

        return true;
    }

    /** @return Whether alive/ must be listed; cleared before listing, as the log's flag. */
    boolean takeAliveDirty() {
        if (!aliveDirty)
            return false;

        aliveDirty = false;

        return true;
    }
}
