package io.zkion.discovery.coordinator;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.ion.TopologySnapshotCodec;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.recipes.cache.ChildData;

/**
 * The elected role: the oldest live server turns what ZooKeeper shows (new alive nodes, vanished ones,
 * queued custom messages, acks) into log entries, one {@code multi} per step, and trims what everyone acked.
 * Members append their plain custom messages to the log themselves; the coordinator only reads those.
 * <p>
 * Every commit sets {@code state} with a version check. A coordinator that lost its role without noticing
 * fails that check and writes nothing; the pending work lives in ZooKeeper, so its successor re-derives it
 * and no event is lost or written twice.
 * <p>
 * Where Ignite's order needs the tail of the log to stand still (collecting a joiner's data, delivering a
 * mutable message here first), the coordinator closes the gate, applies what members appended before, does
 * the work and opens the gate with its commit. Members' appends check the gate's version, so none lands between.
 */
public final class Coordinator implements AutoCloseable {
    private final Member member;
    private final FencedLogWriter writer;
    private final AliveView alive;
    private final CustomQueue customs;
    private final Departures departures;
    private final Joins joins;
    private final Trimmer trimmer;
    private final Sweeper sweeper;
    private final LogRollover rollover;
    private final CoordinatorTask task;
    private final TaskWrites taskWrites;
    private final Notifier notifier;

    public Coordinator(ZkStore store, ControlCodec codec, EventFormats formats, ObjectCodec objects, Member member,
        DiscoveryHost host, ZkIonClusterNode local, DiscoveryMetrics metrics, TopologySnapshotCodec snapshots,
        Notifier notifier, Runnable trigger, CoordinatorTask.Factory tasks) throws Exception {
        CoordinatorContext ctx = new CoordinatorContext(store, codec, formats, objects, member, host, local, metrics,
            trigger);
        Gate gate = new Gate(ctx);

        this.member = member;
        this.writer = new FencedLogWriter(ctx, gate);

        writer.readState();
        gate.read();
        member.adoptOlderEntries();

        // These start watching ZooKeeper, in this order: custom/, and left/ in Departures; the cache of alive/ is
        // started by the first step.
        this.alive = new AliveView(ctx);
        this.customs = new CustomQueue(ctx, writer, notifier);

        FormatChoice format = new FormatChoice(formats, alive, writer);

        MemberSessions sessions = new MemberSessions();

        this.departures = new Departures(ctx, writer, format, sessions);
        this.trimmer = new Trimmer(ctx, alive, writer);
        this.sweeper = new Sweeper(ctx);
        this.joins = new Joins(ctx, snapshots, writer, gate, format, trimmer, sessions);
        this.rollover = new LogRollover(ctx, writer, gate);
        this.notifier = notifier;
        this.taskWrites = new TaskWrites(writer, format, departures);
        this.task = tasks.start(taskWrites);

        metrics.onTakeover();
        ctx.log.info("This node is the discovery coordinator [node=" + local.id() + ", topVer=" + writer.state().topVer
            + ']');
    }

    /**
     * Does whatever ZooKeeper shows is due. Runs on the discovery thread.
     *
     * @param listed The ids under alive/ as this node listed them in this cycle.
     */
    public void step(Set<UUID> listed) throws Exception {
        // Only the coordinator changes the topology: if the state is ahead of this node's, an entry is unread.
        if (writer.state().topVer != member.topology().topVer())
            throw new FencedException("the log holds topology changes this node has not applied yet (state at "
                + writer.state().topVer + ", applied " + member.topology().topVer() + ")");

        // A mutable message delivered here whose commit failed is logged first of all, the gate still closed: Ignite
        // here has it, so the log must have it before a departure (a new term's first included), a join or a member's
        // message.
        if (customs.deliveredUnlogged() && !rollover.draining())
            customs.takeDeliveredUnlogged();

        // A successor fails its predecessor at once, and whatever else is gone, then starts its view of alive/: the
        // view's first reads, of every alive znode, would come before that commit on this session. A first step that
        // failed is tried again by the next; one fenced out resigns, and leaves no reads queued for its successor.
        if (!alive.started()) {
            departures.failUnlisted();
            alive.start();
        }

        if (!alive.loaded())
            return;

        // If a predecessor died holding it, or a step failed before opening it; a rollover's drain holds it closed.
        if (!rollover.draining())
            writer.openGate();

        Map<UUID, ChildData> aliveNow = alive.reconciled(alive.aliveNodes(), listed);

        if (alive.forgetGone(aliveNow))
            trimmer.requestSweep();

        boolean draining = rollover.begin();

        departures.step(aliveNow);

        // A stopping node's NODE_LEFT comes after what it queued here; left/ was listed first, so that the queue holds
        // whatever a node queued before its marker.
        departures.logLeaves(customs.step(departures.leaversWaiting(), !draining, departures.leavers()));

        // Joins wait for the log's new epoch, and for a round's verdict. They come after the departures, and wait for
        // those not logged yet (a stopping node waiting on its queue, failures past one entry): a node restarted at
        // once has the consistent id of its old self, and Ignite refuses a joiner that shares one with a member. And
        // for a mutable message delivered here whose commit failed, should it still be unlogged (Ignite stops this
        // node, and the take waits for the next coordinator).
        if (!draining && !task.holdsJoins() && !departures.pending() && !customs.deliveredUnlogged())
            joins.step(aliveNow, departures.leaving());

        trimmer.step(aliveNow, rollover.draining());
        rollover.finish();
        sweeper.step(aliveNow);

        // Last: a round's verdict may remove this node itself, which then does nothing more as coordinator. Not while
        // Ignite stops this node: the queue waits for the successor, and so does a round, whose verdict could fail a
        // stopping node before its queued messages (see Departures).
        if (!draining && notifier.listening()) {
            taskWrites.seen(aliveNow);
            task.step(aliveNow);
        }
    }

    /**
     * Has the next step list custom/ and left/ again, as it does alive/, whatever their watches said, and build its
     * view of alive/ anew: the safety net for a step that failed after taking their news, and for news lost with a
     * connection.
     */
    public void tick() {
        customs.markDirty();
        departures.markDirty();
        task.markDirty();
        alive.refresh();
    }

    /**
     * Lowers how many departures one entry holds, for the coordinators of this JVM (0 restores it): a step then leaves
     * failures for the next, as one with more than 256 does.
     */
    @TestSeam
    public static void maxDeparturesForTest(int max) {
        Departures.maxDeparturesForTest(max);
    }

    /** Has the caches of alive/ of this JVM's coordinators count as not loaded until released; triggers no step. */
    @TestSeam
    public static void holdAliveLoadForTest(boolean hold) {
        AliveView.holdLoadForTest(hold);
    }

    /** @return Whether this coordinator logged what was gone before its cache of alive/: the cache starts after. */
    @TestSeam
    public boolean failedUnlistedForTest() {
        return alive.started();
    }

    /** Closes the cache of alive/ as if it went stale, leaving this node's listing and direct reads. */
    @TestSeam
    public void closeAliveCacheForTest() {
        alive.close();
    }

    /**
     * Adds a plain persistent watch on alive/ over this node's connection, after the cache's: ZooKeeper 3.8 then
     * keeps only the plain one, and the cache hears no ack and no departure from here on (WatchModeFactsTest).
     */
    @TestSeam
    public void deafenAliveCacheForTest() throws Exception {
        alive.deafenForTest();
    }

    /** Freezes the cache of alive/ as it is now, as if it missed every change from here on. */
    @TestSeam
    public void freezeAliveCacheForTest() {
        alive.freezeForTest();
    }

    /**
     * @return Whether the log, at {@code position}, is due to roll over: the coordinator then drains it, and waits for
     *      every member's ack of what it holds, so members ack at once instead of lazily.
     */
    public static boolean rolloverDue(long position) {
        return LogRollover.due(position);
    }

    /** Has coordinators of this JVM roll the log over from sequence number {@code seq} on; 0 for the default. */
    @TestSeam
    public static void rollLogAtForTest(long seq) {
        LogRollover.rollAtForTest(seq);
    }

    /**
     * Sets how many delete notifications the trim of a backlog may cost per entry logged, for the coordinators of this
     * JVM (0 restores it): a test of a few nodes sets it low enough to pace their trims.
     */
    @TestSeam
    public static void trimNotificationsPerEntryForTest(int n) {
        TrimPace.notificationsPerEntryForTest(n);
    }

    /** Holds trimming, and so the acks of custom messages, on this coordinator until released. */
    @TestSeam
    public void holdTrimForTest(boolean hold) {
        trimmer.hold(hold);
    }

    @Override public void close() {
        task.close();
        customs.close();
        departures.close();
        alive.close();
    }
}
