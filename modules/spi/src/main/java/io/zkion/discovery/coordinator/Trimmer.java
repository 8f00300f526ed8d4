package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.internal.AckPolicy;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.LogEntry;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.Predecoded;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.zookeeper.KeeperException;

/**
 * Entries every node acked are trimmed, and the acks of their custom messages published; data znodes nobody needs
 * any more are swept.
 */
final class Trimmer {
    /** Entries trimmed in one multi at most. */
    private static final int MAX_TRIM = 128;

    /**
     * Ack events in one entry at most: an entry holds fewer than {@link io.zkion.discovery.log.EventIds#PER_ENTRY}
     * events.
     */
    private static final int MAX_ACKS = 512;

    private final ZkStore store;
    private final ZkPaths paths;
    private final ObjectCodec objects;
    private final Member member;
    private final ZkIonClusterNode local;
    private final DiscoveryMetrics metrics;
    private final IgniteLogger log;
    private final Runnable trigger;
    private final AliveView alive;
    private final FencedLogWriter writer;

    /**
     * Set when a data znode may be left over (a joiner vanished, or this node just took over): the next step removes
     * those of nodes neither in the cluster, nor joining, nor taken out by an entry not trimmed yet. The data of a node
     * that left goes when its departure entry is trimmed, once every member is past it.
     */
    private boolean sweepNodes = true;

    /** How long the oldest entry has waited for its trim. */
    private final TrimStall stall = new TrimStall();

    /** How many entries a step may delete while entries keep coming. */
    private final TrimPace pace = new TrimPace();

    /** Set by a test that needs entries, and the acks of their messages, to stay pending. */
    private volatile boolean held;

    /**
     * The member with the lowest ack at the last scan, and the topology it was made in. Acks only grow: while that
     * member's is below the oldest entry, nothing can be trimmed, and a step needs no scan of N members to know it.
     */
    private UUID laggard;
    private Topology laggardIn;

    Trimmer(CoordinatorContext ctx, AliveView alive, FencedLogWriter writer) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.objects = ctx.objects;
        this.member = ctx.member;
        this.local = ctx.local;
        this.metrics = ctx.metrics;
        this.log = ctx.log;
        this.trigger = ctx.trigger;
        this.alive = alive;
        this.writer = writer;
    }

    /** Has the next step sweep the data znodes: one may be left over. */
    void requestSweep() {
        sweepNodes = true;
    }

    /** Holds trimming, and so the acks of custom messages, until released. */
    void hold(boolean hold) {
        held = hold;

        if (!hold)
            trigger.run();
    }

    /** @param draining Whether the log drains for a rollover: its trims are not paced. */
    void step(Map<UUID, ChildData> aliveNow, boolean draining) throws Exception {
        long newest = member.entries().newestSeq();

        pace.step(member.entries().size(), newest, member.topology().size());

        if (held)
            return;

        LogEntry oldest = member.entries().oldest();
        boolean stalled = stall.stalled(oldest == null ? -1 : oldest.seq, newest, member.acksDue()
            || member.entries().size() >= 2 * AckPolicy.entriesBehind(member.topology().size()));

        if (!stalled && oldest != null && stillHeldBack(oldest, aliveNow)) {
            if (sweepNodes)
                sweepNodeData();

            return;
        }

        Map<UUID, LogEntry> joinedIn = joinEntries();
        // The oldest entry that a member which has not applied its own join yet needs: that join's.
        long neededFrom = Long.MAX_VALUE;
        List<String> staleAcks = new ArrayList<>();
        UUID lowest = null;
        long lowestAck = Long.MAX_VALUE;

        for (ZkIonClusterNode n : member.topology().members()) {
            if (n == local)
                continue;

            ChildData d = alive.current(aliveNow.get(n.id()));

            if (d == null)
                continue; // Gone from ZooKeeper: it reads nothing more, and its departure is logged next.

            AliveInfo a = alive.info(d);
            LogEntry join = joinedIn.get(n.id());

            // A joiner starts from its join's entry (its snapshot holds what came before) and needs nothing older. Its
            // ack stays one short of everything until it has applied the join, which takes a joiner of a large cluster
            // long: neither a join storm's trims nor the ack of a message logged just before a join wait for that.
            if (a != null && join != null && a.ack < join.lastEventId && join.seq > oldest.seq) {
                neededFrom = Math.min(neededFrom, join.seq);
                continue;
            }

            // The oldest entry has waited long: the cache may hold an ack that moved on since; ask ZooKeeper.
            if (stalled && a != null && a.ack < oldest.lastEventId) {
                ChildData fresh = alive.readDirectly(n.id());

                metrics.onStalledAckRead();

                if (fresh != null && fresh.getStat().getMzxid() != d.getStat().getMzxid()) {
                    staleAcks.add(n.id() + " (cached " + a.ack + ")");
                    a = alive.info(fresh);
                }
            }

            // An ack that cannot be read holds every trim until it can: skipping the member would trim what it has
            // not read. Not failed out for it: a newer release's record (a rolling upgrade) reads so here, and that
            // node is healthy; a held log only grows, and AliveView warns of the record.
            if (a == null || a.ack < lowestAck) {
                lowest = n.id();
                lowestAck = a == null ? Long.MIN_VALUE : a.ack;
            }
        }

        laggard = lowest;
        laggardIn = member.topology();

        long minAck = Math.min(member.lastEventId(), lowestAck);

        // One line, not one a member: at 1,000 members a stall read up to 1,000 acks.
        if (!staleAcks.isEmpty()) {
            log.warning("The coordinator's cache of alive/ held stale acks of " + staleAcks.size() + " member(s): read"
                + " them directly [trim waits since " + stall.sinceMs() + " ms, first: "
                + staleAcks.subList(0, Math.min(3, staleAcks.size())) + ']');
        }

        List<LogEntry> trimmed = new ArrayList<>();
        List<CuratorOp> ops = new ArrayList<>();
        List<DiscoveryEvent> acks = new ArrayList<>();
        Map<Long, Predecoded> pre = new HashMap<>();
        long evtId = -1;

        long needed = neededFrom;
        int limit = pace.allowance(() -> draining || awaitedAmongTrimmable(minAck, needed), MAX_TRIM);

        for (LogEntry e : member.entries().inOrder()) {
            if (!trimmable(e, minAck, neededFrom) || trimmed.size() >= limit || acks.size() >= MAX_ACKS)
                break;

            trimmed.add(e);
            ops.addAll(store.deleteOps(e.path, e.manifest));

            for (long id : e.customEventIds) {
                DiscoverySpiCustomMessage msg = member.pendingAck(id);
                DiscoverySpiCustomMessage ack = msg == null ? null : msg.ackMessage();

                if (ack != null) {
                    acks.add(DiscoveryEvent.ack(++evtId, writer.state().topVer, local.id(), objects.marshal(ack)));
                    pre.put(evtId, new Predecoded(ack, false, false));
                }
            }
        }

        if (!trimmed.isEmpty()) {
            if (acks.isEmpty())
                writer.commitFenced(ops);
            else
                writer.append(acks, ops, writer.next(), pre);

            member.onTrimmed(trimmed);
            metrics.onTrimmed(trimmed.size());
            pace.spent(trimmed.size());

            // Every member is past these entries: none will apply the join of a node they took out again. Apart from
            // the commit, so that a data znode which is corrupt or lost parts holds no trim up; one missed here
            // (this node dying first) is swept.
            // A node that failed with its session may have asked to join again with the same data znode, or joined.
            for (LogEntry e : trimmed) {
                for (UUID id : e.departed) {
                    if (!member.topology().contains(id) && !store.exists(paths.join(id)))
                        store.deleteQuietly(paths.node(id));
                }
            }
        }

        if (sweepNodes)
            sweepNodeData();
    }

    /**
     * @return Whether nothing can be trimmed for a reason known without a scan: this node has not applied the oldest
     *      entry, or the member with the lowest ack at the last scan, still a member and counted then, is still below
     *      it (or its ack still cannot be read). A joiner not yet past its join is not counted, so never that member.
     */
    private boolean stillHeldBack(LogEntry oldest, Map<UUID, ChildData> aliveNow) {
        if (member.lastEventId() < oldest.lastEventId)
            return true;

        if (laggard == null || laggardIn != member.topology())
            return false;

        ChildData d = aliveNow.get(laggard);

        if (d == null)
            return false;

        AliveInfo a = alive.info(d);

        return a == null || a.ack < oldest.lastEventId;
    }

    /**
     * @return Whether one of the trimmable entries holds a message whose ack Ignite awaits: its trim is not paced. All
     *      of them, not one multi's: behind a backlog of more, a paced trim would reach the message only after the
     *      backlog, one entry an entry logged, for minutes under a slow stream.
     */
    private boolean awaitedAmongTrimmable(long minAck, long neededFrom) {
        for (LogEntry e : member.entries().inOrder()) {
            if (!trimmable(e, minAck, neededFrom))
                return false;

            for (long id : e.customEventIds) {
                if (member.ackAwaited(id))
                    return true;
            }
        }

        return false;
    }

    /**
     * @return Whether {@code e} may be trimmed: every member acked it, and no member that has not applied its own join
     *      yet needs it ({@code neededFrom}, that join's entry). The trim and the scan for awaited acks ask the same.
     */
    private static boolean trimmable(LogEntry e, long minAck, long neededFrom) {
        return e.lastEventId <= minAck && e.seq < neededFrom;
    }

    /** @return The untrimmed entry of each join it holds, by the joined node's id. */
    private Map<UUID, LogEntry> joinEntries() {
        Map<UUID, LogEntry> out = new HashMap<>();

        for (LogEntry e : member.entries().inOrder()) {
            for (UUID id : e.joined)
                out.put(id, e);
        }

        return out;
    }

    /**
     * Removes the data znodes of nodes neither in the topology, nor joining, nor taken out by an entry some member
     * may not have applied yet: of joiners that gave up, and any a trim missed. Each goes in its own fenced commit,
     * so that one which is corrupt, lost parts or went meanwhile holds none of the others up.
     */
    private void sweepNodeData() throws Exception {
        Set<UUID> departing = member.departedUntrimmed();
        int removed = 0;

        sweepNodes = false; // Before listing: a joiner vanishing meanwhile sets it again.

        for (String name : store.leftovers().dataZnodesNotJoining()) {
            UUID id = ZkPaths.nodeId(name);

            if (id == null || member.topology().contains(id) || departing.contains(id))
                continue;

            if (removed == MAX_TRIM) {
                sweepNodes = true;
                trigger.run(); // The rest next step.
                return;
            }

            String path = paths.node(id);

            try {
                byte[] raw = store.rawData(path);

                if (raw != null)
                    writer.commitFenced(store.deleteOps(path, raw));
            }
            catch (KeeperException.NoNodeException | ZkDataException partsGoneOrCorrupt) {
                try {
                    writer.commitFenced(Collections.singletonList(store.deleteOp(path)));
                }
                catch (KeeperException.NoNodeException gone) {
                    // Went meanwhile.
                }
            }

            removed++;
        }

        if (removed > 0)
            log.info("Removed the data znodes of " + removed + " node(s) no longer in or joining the cluster");
    }
}
