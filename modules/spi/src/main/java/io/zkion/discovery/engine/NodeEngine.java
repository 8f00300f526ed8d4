package io.zkion.discovery.engine;

import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.InternalListenerHooks;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.resolve.Rounds;
import io.zkion.discovery.zk.ZkFaults;
import io.zkion.discovery.zk.SessionExpiry;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * The discovery engine of one node: lifecycle, the discovery thread, watches, and the switch between the
 * member and coordinator roles. States: NEW, then JOINING, JOINED, and STOPPED at the end; a client that
 * lost its session is DISCONNECTED until it has rejoined.
 * <p>
 * Every ZooKeeper notification only schedules one "cycle" on the discovery thread; a cycle catches up with
 * the log, checks this node is still alive, settles who coordinates and lets the coordinator work. So all
 * state changes happen on one thread, in one order.
 * <p>
 * This class puts the parts together and answers Ignite; each part does one thing: {@link Lifecycle} the
 * state, {@link DiscoveryLoop} the thread, {@link LogWatch} the watches, {@link DiscoveryCycle} the cycle,
 * {@link RoleSwitch} the role, {@link AckWriter} the acks, {@link MessageSender} custom messages,
 * {@link Joining} and {@link Leaving} the way in and out, {@link SessionLoss} losing the cluster,
 * {@link OutageGuard} riding out a ZooKeeper outage.
 */
public final class NodeEngine {
    /** The engine's states. */
    public enum State { NEW, JOINING, JOINED, DISCONNECTED, LEAVING, STOPPED }

    /** How long a stopping node waits for the coordinator to take its queued custom messages. */
    private static final long QUEUED_WAIT_MS = 10_000;

    private final EngineContext ctx;
    private final Lifecycle lifecycle = new Lifecycle();
    private final Membership membership;
    private final DiscoveryLoop loop;
    private final LogWatch watch;
    private final RoleSwitch role;
    private final AckWriter acks;
    private final MessageSender sender;
    private final Leaving leaving;
    private final Joining joining;
    private final SessionLoss sessionLoss;
    private final DiscoveryCycle cycle;
    private final Queries queries;
    private final OutageGuard outage;
    private final Rounds rounds;

    public NodeEngine(CuratorFramework client, String root, int requestLimit, EventFormats formats,
        ControlCodec codec, ObjectCodec objects, DiscoveryHost host, ZkIonClusterNode local, long joinTimeout,
        boolean clientReconnect, DiscoveryMetrics metrics) {
        this.ctx = new EngineContext(client, root, requestLimit, formats, codec, objects, host, local, joinTimeout,
            clientReconnect, metrics);
        this.membership = new Membership(ctx, lifecycle);
        this.outage = new OutageGuard(ctx, lifecycle, membership);
        this.sender = new MessageSender(ctx, lifecycle, membership, outage);
        this.loop = new DiscoveryLoop(host.igniteInstanceName(), this::runCycle);
        this.watch = new LogWatch(ctx, loop);
        this.rounds = new Rounds(ctx.store(), objects, codec, local, ctx.log(), metrics, host.communication(),
            membership::topology, this::grantedSessionTimeout);
        ctx.notifier().internal(rounds);
        this.role = new RoleSwitch(ctx, membership, watch, loop, rounds.coordinatorTasks(loop::trigger));
        this.acks = new AckWriter(ctx, lifecycle, membership, loop);
        this.leaving = new Leaving(ctx);
        this.joining = new Joining(ctx, membership, acks, watch, loop, outage, () -> lifecycle.is(State.STOPPED));
        this.sessionLoss = new SessionLoss(ctx, lifecycle, membership, role, watch, loop, joining, outage);
        this.cycle = new DiscoveryCycle(ctx, lifecycle, membership, watch, role, acks, sessionLoss, loop, outage);
        outage.onCutOff(sessionLoss::cutOff);
        this.queries = new Queries(ctx, membership, outage);
    }

    /** The loop is made before the cycle that it runs. */
    private void runCycle() {
        cycle.run();
    }

    // ---- Lifecycle.

    /**
     * Joins the cluster; returns once this node has its own NODE_JOINED. Fails at once when the calling thread is
     * interrupted or {@link #stop} is called meanwhile, whatever step the join is at.
     */
    public void start() {
        ctx.client().getConnectionStateListenable().addListener((c, s) -> {
            // Rounds first: the outage's end lets the next cycle run the coordinator's step, which must find the
            // reconnection counted, or it decides an open round at once without the reports the outage held up.
            if (s == ConnectionState.RECONNECTED) {
                try {
                    rounds.onReconnected();
                }
                catch (RuntimeException e) {
                    ctx.log().error("Failed to take up a communication failure round after the reconnection", e);
                }
            }

            sessionLoss.onConnectionState(s);
        });

        if (!lifecycle.startJoining())
            throw new IgniteSpiException("Stopped while joining");

        joining.awaitJoin(joining.joinAsync(cycle::run), "Waiting for this node to join");
    }

    /**
     * Stops this node. A joined node leaves gracefully: a left/ marker, then the session closes and takes the
     * ephemeral nodes with it. A node not in the cluster (starting, or a client rejoining) gives up its join at once.
     */
    public void stop() {
        rounds.close(); // Calls waiting on a communication failure round return now.

        // After this node's messages in the coordinator's queue, which every member delivers before its NODE_LEFT
        // (the coordinator holds the departure until they are logged). Meanwhile this node still reads and acks
        // (LEAVING): a log rollover's drain holds the queue until every member acked, this one too. A coordinator's
        // own queue waits for its successor (see CustomQueue); and while ZooKeeper is out, nobody takes anything.
        if (lifecycle.is(State.JOINED) && membership.member().topology().size() > 1 && !role.isCoordinator()
            && !outage.active() && lifecycle.leave())
            awaitOwnQueuedMessages();

        State prev = lifecycle.stop();

        if (prev == State.NEW || prev == State.JOINING || prev == State.DISCONNECTED) {
            giveUpJoin();
            return;
        }

        boolean wasIn = prev == State.JOINED || prev == State.LEAVING;

        // Not alone: the marker goes first, from this thread, without queueing behind the discovery thread's
        // work; the coordinator logs NODE_LEFT as soon as it sees it.
        boolean withOthers = wasIn && membership.member().topology().size() > 1;

        if (withOthers)
            leaving.markLeaving();

        DiscoveryLoop.Future0 f = loop.submit(() -> {
            if (wasIn && !withOthers) {
                if (role.coordinatesAlone() && membership.member().topology().size() <= 1)
                    leaving.removeCluster();
                else
                    leaving.markLeaving();
            }

            role.resign();
            watch.close();
        });

        f.await(5_000);
        loop.shutdown();
        outage.close();
    }

    private void awaitOwnQueuedMessages() {
        int left = sender.awaitQueuedTaken(QUEUED_WAIT_MS);

        if (left > 0) {
            ctx.log().warning(left + " custom message(s) this node sent were still in the coordinator's queue after "
                + QUEUED_WAIT_MS + " ms; leaving anyway: the coordinator logs them before this node's departure");
        }
    }

    /**
     * A stop before this node is in the cluster: the pending join fails, the handshake on the discovery thread is
     * interrupted, and the join request is taken back, so that ZooKeeper keeps nothing of this start.
     */
    private void giveUpJoin() {
        joining.giveUp();
        loop.shutdown();
        loop.awaitTermination(2_000); // Before the withdrawal, which its version check keeps safe even so.
        watch.close();
        leaving.withdrawJoin();
        outage.close();
    }

    /** Ignite's real SPI context exists: the outage guard answers and asks the peers through it. */
    public void contextInitialized(IgniteSpiContext spiCtx) {
        outage.listen(spiCtx);
    }

    /** Ignite stops this node: its communication still carries messages, and the outage guard says goodbye. */
    public void contextDestroyed() {
        outage.stopping();
    }

    /** @return Whether ZooKeeper is out for this node: CONNECTED, DECIDING, FROZEN or CUT_OFF (see {@link OutageGuard}). */
    public String outageState() {
        return outage.state().name();
    }

    /** Closes this node's ZooKeeper session abruptly, as a crash would, and lets the node find itself excluded. */
    public void simulateFailure() {
        sessionLoss.simulateFailure();
    }

    /** Installs Ignite's own test hook, adapted; see {@link InternalListenerHooks}. */
    @TestSeam
    public void hooks(InternalListenerHooks hooks) {
        ctx.hooks(hooks);
    }

    /** Ignite asked a client to reconnect. */
    public void clientReconnect() {
        sessionLoss.excludeSoon();
    }

    // ---- Queries and requests from Ignite.

    public State state() {
        return lifecycle.state();
    }

    public Topology topology() {
        return membership.topology();
    }

    public long gridStartTime() {
        ClusterState s = membership.joinedState();

        return s == null ? 0 : s.gridStartTime;
    }

    public ClusterNode coordinator() {
        return queries.coordinator();
    }

    public boolean pingNode(UUID id) {
        return queries.pingNode(id);
    }

    public boolean knownNode(UUID id) {
        return queries.knownNode(id);
    }

    /** Removes a client's alive node; the coordinator then reports it failed, and the client rejoins or stops. */
    public void failNode(UUID id, String warning) {
        queries.failNode(id, warning);
    }

    /** @return The log gate as this node last read it (open or closed, and the format the cluster writes). */
    public GateState gate() throws Exception {
        return sender.gate();
    }

    /** @return This node's ZooKeeper session id, in hex; "none" without a session. */
    public String sessionId() {
        try {
            return "0x" + Long.toHexString(ctx.client().getZookeeperClient().getZooKeeper().getSessionId());
        }
        catch (Exception e) {
            return "none";
        }
    }

    /** Blocks until a communication failure round decided on {@code peer}; see {@link Rounds#resolve}. */
    public void resolveCommunicationFailure(ClusterNode peer, Exception err) {
        rounds.resolve(peer, err);
    }

    /** @return The session timeout ZooKeeper granted, in ms; 10 s if there is no session to ask. */
    private long grantedSessionTimeout() {
        try {
            int t = ctx.client().getZookeeperClient().getZooKeeper().getSessionTimeout();

            return t > 0 ? t : 10_000;
        }
        catch (Exception e) {
            return 10_000;
        }
    }

    /** Sends a custom message through the log, or through the coordinator's queue where it must. */
    public void sendCustom(DiscoverySpiCustomMessage msg) {
        sender.send(msg);
    }

    /** @return The paths this node's session has one-shot child watches on, as its ZooKeeper client lists them. */
    @TestSeam
    @SuppressWarnings("unchecked")
    public java.util.List<String> childWatchesForTest() throws Exception {
        java.lang.reflect.Method m = org.apache.zookeeper.ZooKeeper.class.getDeclaredMethod("getChildWatches");

        m.setAccessible(true); // ZooKeeper keeps the list for its own tests.

        return (java.util.List<String>)m.invoke(ctx.client().getZookeeperClient().getZooKeeper());
    }

    /**
     * Sets the coordinator's tick (the cycle that lists alive/, custom/ and left/ whatever their watches said) of the
     * nodes started from now on in this JVM; 0 restores it.
     */
    @TestSeam
    public static void coordinatorTickForTest(long ms) {
        RoleSwitch.tickMsForTest(ms);
    }

    /** Injects faults into this node's commits; set before {@link #start}. */
    @TestSeam
    public void zkFaultsForTest(ZkFaults faults) {
        ctx.store().faults(faults);
    }

    /** @return Whether this node has a communication failure round open. */
    @TestSeam
    public boolean roundOpenForTest() {
        return rounds.openForTest();
    }

    /** Runs {@code hook} on the discovery thread once a join's request is written, before the wait for its answer. */
    @TestSeam
    public void afterJoinRequestForTest(Runnable hook) {
        ctx.afterJoinRequest(hook);
    }

    /** Ends this node's session on the server at once: its ephemeral znodes go now, as on a real expiry. */
    @TestSeam
    public void expireSessionOnServerForTest() throws Exception {
        SessionExpiry.onServer(ctx.client());
    }

    /** Has ZooKeeper expire this node's session, as it would after a pause past the session timeout. */
    @TestSeam
    public void expireSessionForTest() throws Exception {
        SessionExpiry.onClient(ctx.client());
    }

    /**
     * Holds this node's discovery thread, as a long pause would, until the returned handle is closed: it reads,
     * applies and acks nothing meanwhile.
     */
    @TestSeam
    public AutoCloseable holdDiscoveryForTest() throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);

        loop.execute(() -> {
            held.countDown();

            try {
                released.await();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        held.await();

        return released::countDown;
    }

    /** @return The coordinator's parts, while this node coordinates; null otherwise. */
    @TestSeam
    public Coordinator coordinatorForTest() {
        return role.coordinator();
    }

    public long pendingEntries() {
        Member m = membership.member();

        return m == null ? 0 : m.entries().size();
    }

    public Collection<ClusterNode> remoteNodes() {
        return queries.remoteNodes();
    }
}
