package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;

/**
 * Nodes stopping become NODE_LEFT, after the messages they queued for the coordinator; nodes gone from ZooKeeper
 * without a word become NODE_FAILED, and what they queued is dropped.
 */
final class Departures implements AutoCloseable {
    /**
     * Departures in one entry at most: an entry holds fewer than {@link io.zkion.discovery.log.EventIds#PER_ENTRY}
     * events.
     */
    private static final int MAX_DEPARTURES = 256;

    /** {@link #MAX_DEPARTURES}, unless a test lowered it to make a step leave departures for the next. */
    private static volatile int maxDepartures = MAX_DEPARTURES;

    private final ZkStore store;
    private final ZkPaths paths;
    private final Member member;
    private final ZkIonClusterNode local;
    private final Runnable trigger;
    private final FencedLogWriter writer;
    private final FormatChoice format;
    private final MemberSessions sessions;

    /**
     * Set by the watch on left/ (a node stopping says so there before its session ends), and by the coordinator's
     * tick: a listing that failed after clearing it would otherwise wait for the next marker.
     */
    private final PersistentWatcher leftWatch;
    private volatile boolean leftDirty = true;
    private Set<UUID> leaving = new HashSet<>();

    /** Of this step: the nodes stopping, whose NODE_LEFT waits for the queue to be listed, and alive/ as listed. */
    private final List<UUID> leavers = new ArrayList<>();
    /** Whether failures of this step did not fit in its entry: they are logged next step, before any join. */
    private boolean failuresPending;
    private Map<UUID, ChildData> aliveNow = new HashMap<>();

    /** The topology of the last step, and whether that step found anybody gone: if not, and nothing changed, none is. */
    private Topology seenIn;
    private boolean goneSeen = true;

    /** Starts the watch on left/. */
    Departures(CoordinatorContext ctx, FencedLogWriter writer, FormatChoice format, MemberSessions sessions) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.member = ctx.member;
        this.local = ctx.local;
        this.trigger = ctx.trigger;
        this.writer = writer;
        this.format = format;
        this.sessions = sessions;

        leftWatch = new PersistentWatcher(store.client(), paths.left, false);
        leftWatch.getListenable().addListener(e -> {
            leftDirty = true;
            trigger.run();
        });
        leftWatch.start();
    }

    /** @return The nodes stopping, as left/ showed at this step. */
    Set<UUID> leaving() {
        return leaving;
    }

    /** Has the next step list left/. */
    void markDirty() {
        leftDirty = true;
    }

    /**
     * Logs the nodes gone from ZooKeeper without a word as NODE_FAILED; those stopping wait for {@link #logLeaves},
     * after the coordinator's queue was listed.
     */
    void step(Map<UUID, ChildData> aliveNow) throws Exception {
        // The same view of alive/ (it is built anew only when who is there changes), topology and markers as the last
        // step, which found nobody gone: nor would a scan of every member now.
        if (!goneSeen && !leftDirty && aliveNow == this.aliveNow && member.topology() == seenIn)
            return;

        seenIn = member.topology();
        goneSeen = true; // Until this step's scan completes: a listing that fails first leaves nothing to skip on.

        // Listed here, the listing already comes after aliveNow: it finds the marker of every node gone from it.
        boolean listedAfterAlive = leftDirty;

        if (leftDirty)
            leaving = listLeft();

        sessions.retain(member.topology()::contains);

        this.aliveNow = aliveNow;
        leavers.clear();

        List<UUID> gone = new ArrayList<>();
        boolean unmarked = false;

        for (ZkIonClusterNode n : member.topology().members()) {
            // A stopping node is out as soon as its marker is: waiting for its session to close costs a round of
            // ZooKeeper notifications, and the node no longer takes part.
            boolean left = leaving.contains(n.id());

            // Its alive znode another than the one it joined with: its session ended, and it asks to join anew.
            if (n == local || (!left && aliveNow.containsKey(n.id()) && !sessions.replaced(n.id(), aliveNow.get(n.id()))))
                continue;

            gone.add(n.id());
            unmarked |= !left;
        }

        goneSeen = !gone.isEmpty();

        // Gone with a marker this node has not listed (a listing failed, or is due): it left, and its marker goes with
        // its departure rather than staying behind. Listed again, after the departures were seen, before the queue is:
        // one listing, where a read per node cost 100 round trips when 100 nodes failed at once (issue 20).
        Set<UUID> marked = leaving;

        if (unmarked && !listedAfterAlive) {
            leaving = listLeft();
            marked = new HashSet<>(marked); // A node marked in either listing left, its marker gone or not since.
            marked.addAll(leaving);
        }

        List<UUID> failed = new ArrayList<>();

        for (UUID id : gone)
            (marked.contains(id) ? leavers : failed).add(id);

        failuresPending = log(failed, false, this::currentFormat) < failed.size();
    }

    /**
     * A successor's first step, before its cache of alive/ has started (it reads every alive znode, hundreds of ms at
     * 1,000 members, and a commit sent after those reads waits for them; docs/benchmarks.md). Logs as
     * NODE_FAILED the members that a listing of alive/ no longer names and that left no marker, in the log's current
     * format, which every member reads: the format may change once the nodes' data is read. A replaced session, a
     * node stopping and failures past what one entry holds wait for the first full step.
     */
    void failUnlisted() throws Exception {
        // Listed after the topology was applied: a member's alive znode was created before the entry of its join.
        Set<UUID> listed = ZkPaths.nodeIds(store.children(paths.alive));

        leaving = listLeft(); // After alive/: a node gone from it that left a marker is stopping, not failed.

        List<UUID> failed = new ArrayList<>();

        for (ZkIonClusterNode n : member.topology().members()) {
            if (n != local && !listed.contains(n.id()) && !leaving.contains(n.id()))
                failed.add(n.id());
        }

        log(failed, false, () -> writer.state().format);
    }

    /** @return The nodes left/ names now. */
    private Set<UUID> listLeft() throws Exception {
        leftDirty = false; // Before listing: a marker written meanwhile sets it again.

        return ZkPaths.nodeIds(store.children(paths.left));
    }

    /** Sets how many departures one entry holds for the coordinators of this JVM; 0 restores the default. */
    @TestSeam
    static void maxDeparturesForTest(int max) {
        maxDepartures = max > 0 ? max : MAX_DEPARTURES;
    }

    /** @return Whether nodes that are stopping wait for {@link #logLeaves}: the queue must be listed first. */
    boolean leaversWaiting() {
        return !leavers.isEmpty();
    }

    /** @return The nodes of this step that are stopping. */
    Set<UUID> leavers() {
        return new HashSet<>(leavers);
    }

    /**
     * Logs the NODE_LEFT of each node stopping, but of those with a message still in the coordinator's queue: a
     * message whose send returned comes before its sender's departure (a coordinator that stops leaves its own queue
     * to its successor), and the queue drops what a node not in the topology sent. The queue was listed after left/
     * and every marker found: it holds whatever a stopping node queued before its marker.
     *
     * @param queued The senders of what is still queued; null if the queue was not listed in this step.
     */
    void logLeaves(Set<UUID> queued) throws Exception {
        if (queued == null)
            return; // The next step lists it.

        List<UUID> out = new ArrayList<>(leavers);

        out.removeAll(queued);

        leavers.removeAll(out.subList(0, log(out, true, this::currentFormat)));
    }

    /**
     * @return Whether departures of this step are not logged yet: nodes stopping that wait for their queue, or
     *      failures past what one entry holds. Either is still in the topology, and a joiner may share its consistent id.
     */
    boolean pending() {
        return !leavers.isEmpty() || failuresPending;
    }

    /** @return The format every alive node reads, those stopping aside: read from their alive znodes. */
    private String currentFormat() {
        return format.current(aliveNow, leaving);
    }

    /**
     * @param formatOf The format of the entry, asked only if there is one.
     * @return How many of {@code ids} were logged: the first ones, up to what one entry holds.
     */
    private int log(List<UUID> ids, boolean left, Supplier<String> formatOf) throws Exception {
        List<DiscoveryEvent> events = new ArrayList<>();
        List<CuratorOp> ops = new ArrayList<>();
        long topVer = writer.state().topVer;
        long evtId = -1; // Indexes in the entry: its place in the log makes them absolute.

        for (UUID id : ids) {
            // An entry holds fewer than EventIds.PER_ENTRY events, and one multi has a size bound: the rest go next step.
            if (events.size() >= maxDepartures) {
                trigger.run();
                break;
            }

            events.add(left ? DiscoveryEvent.left(++evtId, ++topVer, id) : DiscoveryEvent.failed(++evtId, ++topVer, id));

            if (left)
                ops.add(store.deleteOp(paths.left(id)));
        }

        if (events.isEmpty())
            return 0;

        writer.append(events, ops, writer.next(topVer, formatOf.get()), new HashMap<>());

        // An answer the joiner never read and removed, if it died right after its join: after the commit, off the
        // path of the departure itself.
        for (DiscoveryEvent e : events)
            store.deleteQuietly(paths.joined(e.nodeId()));

        return events.size();
    }

    @Override public void close() {
        try {
            leftWatch.close();
        }
        catch (Exception ignored) {
            // Closing anyway.
        }
    }
}
