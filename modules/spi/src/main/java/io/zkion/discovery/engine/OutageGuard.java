package io.zkion.discovery.engine;

import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.ignite.IgniteClientDisconnectedException;
import org.apache.ignite.IgniteException;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.IgniteSpiContext;

/**
 * What a joined node does while it cannot reach ZooKeeper. ZooKeeper expires no session while its ensemble has no
 * quorum, so an outage of the ensemble is one every node rides out with its place kept: the topology freezes. A node
 * cut off alone is another matter: the ensemble expires its session and the others fail it and take over its
 * partitions, so it must stop serving first. The rule that tells the two apart:
 * <ul>
 * <li>A client freezes: it holds no partitions, and if the cluster fails it meanwhile, it rejoins as a new node.</li>
 * <li>A server asks the other servers of its topology, over Ignite's communication, whether they reach ZooKeeper.
 * It freezes once every one of them has answered that it does not: then nobody can fail anybody.</li>
 * <li>Without that answer from every one of them (one reaches ZooKeeper, or does not answer), it is segmented a
 * quarter of the session timeout after it lost ZooKeeper. Its client notices silence after two thirds of the
 * timeout, so the ensemble may expire its session a third of the timeout after that, at the earliest.</li>
 * <li>A frozen server that hears a peer reach ZooKeeper again while it still does not is segmented half a session
 * timeout after that, unless it reconnects: the new leader gave its session a full timeout at the quorum's return,
 * at most moments before the peer reconnected.</li>
 * </ul>
 * States: CONNECTED, DECIDING (lost, a deadline running), FROZEN (lost by all), CUT_OFF (segmented; final).
 * Every transition is a compare-and-set.
 */
final class OutageGuard implements AutoCloseable {
    /** The guard's states. */
    enum Outage { CONNECTED, DECIDING, FROZEN, CUT_OFF }

    private final EngineContext ctx;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final PeerProbe probe;
    private final ScheduledExecutorService timer;
    private final AtomicReference<Outage> state = new AtomicReference<>(Outage.CONNECTED);
    /** Numbers the outages: answers to an earlier one's questions are stale. */
    private final AtomicLong outage = new AtomicLong();
    /** Each server peer's latest answer in this outage: whether it reaches ZooKeeper. */
    private final Map<UUID, Boolean> answers = new ConcurrentHashMap<>();
    private final Object connectedMux = new Object();

    /** Called, off the discovery thread, to segment the node cut off alone; gets the reason. */
    private volatile Consumer<String> cutOff = r -> { };
    private volatile long startedAt;
    private volatile long deadline;

    OutageGuard(EngineContext ctx, Lifecycle lifecycle, Membership membership) {
        this.ctx = ctx;
        this.local = ctx.local();
        this.log = ctx.log();
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.probe = new PeerProbe(this::connected, this::answered, log);

        String inst = ctx.host().igniteInstanceName();

        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "zkion-outage%" + (inst == null ? "" : inst) + '%');

            t.setDaemon(true);

            return t;
        });
    }

    /** Sets what segments this node when it turns out to be cut off alone. */
    void onCutOff(Consumer<String> cutOff) {
        this.cutOff = cutOff;
    }

    /** Answers the peers' questions, and asks them, through Ignite's real context. */
    void listen(IgniteSpiContext spiCtx) {
        probe.listen(spiCtx);
    }

    Outage state() {
        return state.get();
    }

    /** @return Whether this node is in an outage: discovery waits for ZooKeeper instead of working. */
    boolean active() {
        Outage s = state.get();

        return s == Outage.DECIDING || s == Outage.FROZEN;
    }

    /** Curator suspended the connection: the outage starts, for a joined node. */
    void suspended() {
        if (!lifecycle.is(State.JOINED))
            return; // A joining node fails its join as before; a stopped one has nothing to keep.

        Outage to = local.isClient() ? Outage.FROZEN : Outage.DECIDING;

        if (!state.compareAndSet(Outage.CONNECTED, to))
            return;

        long n = outage.incrementAndGet();
        long t = sessionTimeout();

        answers.clear();
        startedAt = System.currentTimeMillis();
        deadline = startedAt + t / 4;
        ctx.metrics().onOutageStarted(startedAt);

        log.warning("ZooKeeper lost [node=" + local.id() + ", outage=" + n + "]: " + (to == Outage.FROZEN
            ? "this client holds its place until ZooKeeper is back"
            : "asking the other servers whether they reach it; segmented in " + t / 4 + " ms unless all say no"));

        if (to == Outage.DECIDING)
            run(() -> tick(n));
    }

    /** The node has just joined: if ZooKeeper is out already, the outage starts now. */
    void joined() {
        if (!connected())
            suspended();
    }

    /**
     * ZooKeeper answered again: with this node's session kept (Curator reconnected) or with news that it expired
     * (lost; the session loss takes it from there). The outage is over either way.
     */
    void ended(boolean sessionKept) {
        Outage prev = state.get();

        if ((prev == Outage.DECIDING || prev == Outage.FROZEN) && state.compareAndSet(prev, Outage.CONNECTED)) {
            long lasted = System.currentTimeMillis() - startedAt;

            ctx.metrics().onOutageEnded(lasted);
            log.info("ZooKeeper back after " + lasted + " ms [node=" + local.id() + ", was=" + prev + "]: "
                + (sessionKept ? "discovery resumes from the log where it stopped" : "but this node's session expired"));
        }

        synchronized (connectedMux) {
            connectedMux.notifyAll();
        }
    }

    /**
     * Holds a custom message of this node while ZooKeeper is out, until it is back: the message then goes on, in
     * its order. Fails if this node leaves the cluster instead.
     */
    void awaitConnected() {
        if (!active())
            return;

        ctx.metrics().onMessageHeld(1);

        try {
            synchronized (connectedMux) {
                while (active() && lifecycle.is(State.JOINED))
                    connectedMux.wait(500);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IgniteException("Interrupted while the custom message waited for ZooKeeper to come back", e);
        }
        finally {
            ctx.metrics().onMessageHeld(-1);
        }

        if (lifecycle.is(State.DISCONNECTED))
            throw new IgniteClientDisconnectedException(null, "Client node is disconnected: its session expired while"
                + " ZooKeeper was out, and it rejoins");

        if (state.get() == Outage.CUT_OFF || !lifecycle.is(State.JOINED))
            throw new IgniteException("The custom message was not sent: this node lost ZooKeeper and left the cluster"
                + " before ZooKeeper came back");
    }

    private void answered(UUID peer, long outageNo, boolean reaches) {
        if (outageNo == outage.get() && active()) {
            answers.put(peer, reaches);
            run(this::decide); // On the guard's thread; only its ticks ask again.
        }
    }

    /** One tick of outage {@code n}: decides, asks the peers again while it lasts, and comes back. */
    private void tick(long n) {
        if (outage.get() != n || !decide())
            return;

        long t = sessionTimeout();
        long now = System.currentTimeMillis();

        probe.ask(n, serverPeers());

        try {
            timer.schedule(() -> tick(n), state.get() == Outage.DECIDING
                ? Math.max(50, Math.min(t / 20, deadline - now)) : Math.max(100, t / 10), TimeUnit.MILLISECONDS);
        }
        catch (RuntimeException ignored) {
            // Closed: the node stops.
        }
    }

    private void run(Runnable r) {
        try {
            timer.execute(r);
        }
        catch (RuntimeException ignored) {
            // Closed: the node stops.
        }
    }

    /**
     * Applies the rule (see the class) to what the peers said so far. @return Whether the outage goes on with this
     * node in it (DECIDING or FROZEN).
     */
    private synchronized boolean decide() {
        Outage s = state.get();

        if (s != Outage.DECIDING && s != Outage.FROZEN)
            return false;

        if (!lifecycle.is(State.JOINED)) {
            state.compareAndSet(s, Outage.CONNECTED); // Stopped or segmented by other news: nothing to guard.
            return false;
        }

        List<ClusterNode> peers = serverPeers();
        long now = System.currentTimeMillis();
        long t = sessionTimeout();
        UUID reaching = reachingPeer();

        if (s == Outage.DECIDING) {
            if (allLost(peers) && state.compareAndSet(s, Outage.FROZEN)) {
                log.warning("ZooKeeper is out for every server (" + peers.size() + " other(s) said so): the topology"
                    + " is frozen until it is back [node=" + local.id() + ']');
            }
            else if (now >= deadline && state.compareAndSet(s, Outage.CUT_OFF)) {
                ctx.metrics().onOutageEnded(now - startedAt);
                cutOff.accept("this node lost ZooKeeper for " + (now - startedAt) + " ms while " + (reaching != null
                    ? "server " + reaching + " reaches it" : peers.size() - lostCount() + " of " + peers.size()
                    + " other server(s) did not say they lost it too") + ": it stops serving before the cluster can"
                    + " fail it");

                return false;
            }

            return true;
        }

        if (reaching != null && state.compareAndSet(s, Outage.DECIDING)) {
            deadline = now + t / 2;
            log.warning("Server " + reaching + " reaches ZooKeeper again and this node does not: segmented in "
                + t / 2 + " ms unless it reconnects [node=" + local.id() + ']');
        }

        return true;
    }

    private boolean allLost(List<ClusterNode> peers) {
        for (ClusterNode n : peers) {
            if (!Boolean.FALSE.equals(answers.get(n.id())))
                return false;
        }

        return true;
    }

    private int lostCount() {
        int n = 0;

        for (Boolean b : answers.values())
            n += Boolean.FALSE.equals(b) ? 1 : 0;

        return n;
    }

    private UUID reachingPeer() {
        for (Map.Entry<UUID, Boolean> e : answers.entrySet()) {
            if (e.getValue())
                return e.getKey();
        }

        return null;
    }

    private List<ClusterNode> serverPeers() {
        List<ClusterNode> out = new ArrayList<>();
        Topology top = membership.topology();

        for (ClusterNode n : top.nodes()) {
            if (!n.isClient() && !n.id().equals(local.id()))
                out.add(n);
        }

        return out;
    }

    private boolean connected() {
        return ctx.client().getZookeeperClient().isConnected();
    }

    /** The session timeout the ensemble granted this node: the clock every bound above is set by. */
    private long sessionTimeout() {
        try {
            return ctx.client().getZookeeperClient().getZooKeeper().getSessionTimeout();
        }
        catch (Exception e) {
            return ctx.client().getZookeeperClient().getConnectionTimeoutMs();
        }
    }

    @Override public void close() {
        timer.shutdownNow();
        probe.close();

        synchronized (connectedMux) {
            connectedMux.notifyAll();
        }
    }
}
