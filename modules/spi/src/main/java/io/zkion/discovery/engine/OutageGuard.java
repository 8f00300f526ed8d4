package io.zkion.discovery.engine;

import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.engine.OutageRule.Outage;
import io.zkion.discovery.engine.OutageRule.Verdict;
import io.zkion.discovery.internal.NodeThreads;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ServingCheck;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.ignite.IgniteClientDisconnectedException;
import org.apache.ignite.IgniteException;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.IgniteSpiContext;

/**
 * Runs {@link OutageRule} for a joined node while it cannot reach ZooKeeper: feeds it Curator's news, the tallier's
 * verdicts ({@link PeerProbe}; this node tallies the others' reports with {@link ReachTally} while it is the oldest
 * server) and the ensemble's own answer ({@link ServingCheck}), reports again on a tick while the outage lasts, logs
 * and counts what happens, segments the node the rule finds cut off, and holds the node's custom messages until
 * ZooKeeper is back.
 */
final class OutageGuard implements AutoCloseable {
    private final EngineContext ctx;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final OutageRule rule = new OutageRule();
    /** What the servers report while this node is the tallier. */
    private final ReachTally tally = new ReachTally();
    private final PeerProbe probe;
    private final ScheduledExecutorService timer;
    private final ExecutorService checks;
    private final AtomicBoolean checking = new AtomicBoolean();
    private final AtomicBoolean decidePending = new AtomicBoolean();
    /** The session timeout as last granted: what the rule's bounds are set by. */
    private volatile long knownTimeout;
    private final Object connectedMux = new Object();
    /** Servers that said they are stopping: they answer no more, and will not be there to fail this node. */
    private final Set<UUID> leavers = ConcurrentHashMap.newKeySet();
    /** Ignite stops this node: no cut-off then, which Ignite's failure handler would take for a crash. */
    private volatile boolean stopping;

    /** Segments the node cut off alone, off the discovery thread; gets the reason. */
    private volatile Consumer<String> cutOff = r -> { };

    OutageGuard(EngineContext ctx, Lifecycle lifecycle, Membership membership) {
        this.ctx = ctx;
        this.local = ctx.local();
        this.log = ctx.log();
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.probe = new PeerProbe(this::connected, new PeerProbe.Listener() {
            @Override public void reported(UUID from, long outage, boolean reaches, long seq) {
                onReport(from, outage, reaches, seq);
            }

            @Override public void verdict(UUID from, long outage, ReachTally.Verdict v, long topVer, UUID reaching) {
                onVerdict(outage, v, topVer, reaching);
            }

            @Override public void leaving(UUID from) {
                OutageGuard.this.leaving(from);
            }
        }, log);

        String inst = ctx.host().igniteInstanceName();

        this.timer = Executors.newSingleThreadScheduledExecutor(r -> NodeThreads.daemon(r, "zkion-outage", inst));
        this.checks = Executors.newSingleThreadExecutor(r -> NodeThreads.daemon(r, "zkion-outage-check", inst));
    }

    /** Sets what segments this node when the rule finds it cut off alone. */
    void onCutOff(Consumer<String> cutOff) {
        this.cutOff = cutOff;
    }

    /** Reports, tallies and hears verdicts through Ignite's real context. */
    void listen(IgniteSpiContext spiCtx) {
        probe.listen(spiCtx);
    }

    /** This node stops: tells the other servers, which must not wait for its reports through an outage. */
    void stopping() {
        stopping = true;

        if (!local.isClient())
            probe.announceLeaving(serverPeers());
    }

    Outage state() {
        return rule.state();
    }

    /** @return Whether this node is in an outage: discovery waits for ZooKeeper instead of working. */
    boolean active() {
        return rule.active();
    }

    /** Curator suspended the connection: the outage starts, for a joined node. */
    void suspended() {
        if (!lifecycle.is(State.JOINED))
            return; // A joining node fails its join as before; a stopped one has nothing to keep.

        long t = sessionTimeout();
        long n = rule.suspended(local.isClient(), System.currentTimeMillis(), t);

        if (n == 0)
            return;

        ctx.metrics().onOutageStarted(rule.startedAt());

        log.warning("ZooKeeper lost [node=" + local.id() + ", outage=" + n + "]: " + (local.isClient()
            ? "this client holds its place until ZooKeeper is back"
            : "reporting to the tallier; segmented in " + OutageRule.firstDeadline(t) + " ms unless it says every server lost it"));

        if (!local.isClient())
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
        Outage prev = rule.ended();

        if (prev != null && !local.isClient())
            reportBack(rule.number());

        if (prev != null) {
            long lasted = System.currentTimeMillis() - rule.startedAt();

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

        if (rule.state() == Outage.CUT_OFF || !lifecycle.is(State.JOINED))
            throw new IgniteException("The custom message was not sent: this node lost ZooKeeper and left the cluster"
                + " before ZooKeeper came back");
    }

    private void leaving(UUID peer) {
        leavers.add(peer);
        run(this::decide);
    }

    /** A server reported its reach: this node tallies (it is the oldest server), and answers with its verdict. */
    private void onReport(UUID from, long outage, boolean reaches, long seq) {
        long now = System.currentTimeMillis();

        tally.reported(from, reaches, seq, now);

        ReachTally.Verdict v;
        UUID reaching;

        synchronized (tally) { // Reports come on several threads: the verdict and the server it names, together.
            v = tallyVerdict(now);
            reaching = tally.reaching();
        }

        probe.sendVerdict(from, outage, v, membership.topology().topVer(), reaching);

        if (rule.active())
            takeVerdict(rule.number(), v, reaching);
    }

    /** The tallier's verdict on this node's outage. One that knew fewer nodes than this one proves nothing. */
    private void onVerdict(long outage, ReachTally.Verdict v, long topVer, UUID reaching) {
        if (v == ReachTally.Verdict.ALL_LOST && topVer < membership.topology().topVer())
            v = ReachTally.Verdict.UNDECIDED;

        takeVerdict(outage, v, reaching);
    }

    private void takeVerdict(long outage, ReachTally.Verdict v, UUID reaching) {
        rule.verdict(outage, v == ReachTally.Verdict.ALL_LOST, v == ReachTally.Verdict.ONE_REACHES ? reaching : null);

        // On the guard's thread, once for a burst: a decision weighs every peer.
        if (decidePending.compareAndSet(false, true)) {
            run(() -> {
                decidePending.set(false);
                decide();
            });
        }
    }

    private ReachTally.Verdict tallyVerdict(long now) {
        long t = sessionTimeout();
        Set<UUID> servers = new HashSet<>();

        for (ClusterNode n : serverPeers())
            servers.add(n.id());

        tally.forget(servers, now, t);

        return tally.verdict(local.id(), servers, connected(), now, t / 4, t);
    }

    /** Reports this node's reach in outage {@code n} to the tallier, or tallies it itself if it is the oldest server. */
    private void report(long n) {
        ClusterNode tallier = tallier();

        if (tallier == null)
            return; // No other server: the rule freezes it.

        if (tallier.id().equals(local.id())) {
            synchronized (tally) {
                takeVerdict(n, tallyVerdict(System.currentTimeMillis()), tally.reaching());
            }
        }
        else
            probe.report(tallier, n);
    }

    /** @return The tallier: the oldest server of the topology that did not say it is stopping; this node, maybe. */
    private ClusterNode tallier() {
        for (ClusterNode n : membership.topology().nodes()) {
            if (!n.isClient() && !leavers.contains(n.id()))
                return n;
        }

        return null;
    }

    /**
     * Back with ZooKeeper: tells the tallier, three times a tenth of the timeout apart in case a message is lost, so
     * that a server still frozen hears that one is back (it must then reconnect within half a timeout, or stop).
     */
    private void reportBack(long n) {
        long t = sessionTimeout();

        for (int i = 0; i < 3; i++) {
            try {
                timer.schedule(() -> {
                    ClusterNode tallier = tallier();

                    if (tallier != null && !tallier.id().equals(local.id()) && connected())
                        probe.report(tallier, n);
                }, i * Math.max(100, t / 10), TimeUnit.MILLISECONDS);
            }
            catch (RuntimeException ignored) {
                // Closed: the node stops.
            }
        }
    }

    /** One tick of outage {@code n}: decides, reports and asks the ensemble again while it lasts, and comes back. */
    private void tick(long n) {
        if (rule.number() != n || !decide())
            return;

        long t = sessionTimeout();
        boolean deciding = rule.state() == Outage.DECIDING;

        report(n);

        if (deciding)
            checkServing((int)Math.max(100, Math.min(500, t / 10)));

        long delay = deciding ? Math.max(50, Math.min(t / 20, rule.deadline() - System.currentTimeMillis()))
            : Math.max(100, t / 10);

        try {
            timer.schedule(() -> tick(n), delay, TimeUnit.MILLISECONDS);
        }
        catch (RuntimeException ignored) {
            // Closed: the node stops.
        }
    }

    /** Asks the ensemble's servers whether one serves, unless a check runs already. */
    private void checkServing(int timeoutMs) {
        if (!checking.compareAndSet(false, true))
            return;

        try {
            checks.execute(() -> {
                try {
                    String servers = ctx.client().getZookeeperClient().getCurrentConnectionString();

                    if (ServingCheck.anyServing(servers, timeoutMs))
                        rule.servingSeen(System.currentTimeMillis());
                }
                finally {
                    checking.set(false);
                }
            });
        }
        catch (RuntimeException e) {
            checking.set(false); // Closed: the node stops.
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

    /** Applies the rule now, and acts on its verdict. @return Whether the outage goes on with this node in it. */
    private synchronized boolean decide() {
        if (!rule.active() || stopping)
            return false;

        if (!lifecycle.is(State.JOINED)) {
            rule.ended(); // Stopped or segmented by other news: nothing to guard.
            return false;
        }

        List<UUID> peers = new ArrayList<>();

        for (ClusterNode n : serverPeers())
            peers.add(n.id());

        long now = System.currentTimeMillis();
        long t = sessionTimeout();
        long lost = now - rule.startedAt();
        Verdict v = rule.decide(peers, now, t);

        switch (v) {
            case FROZE:
                log.warning("ZooKeeper is out for every server (" + peers.size() + " other(s) said so): the topology"
                    + " is frozen until it is back [node=" + local.id() + ']');
                break;

            case EXTENDED:
                log.warning("A ZooKeeper server answers this node: waiting for its client to reconnect, segmented in "
                    + (rule.deadline() - now) + " ms unless it does [node=" + local.id() + ']');
                break;

            case PEER_BACK:
                log.warning("Server " + rule.reachingPeer() + " reaches ZooKeeper again and this node does not:"
                    + " segmented in " + t / 2 + " ms unless it reconnects [node=" + local.id() + ']');
                break;

            case CUT_OFF: {
                UUID reaching = rule.reachingPeer();
                ClusterNode tallier = tallier();

                // The servers report to the tallier, not to this node: its verdict is what this node knows of them.
                ctx.metrics().onOutageEnded(lost);
                cutOff.accept("this node lost ZooKeeper for " + lost + " ms while " + (reaching != null ? "server "
                    + reaching + " reaches it" : "the tallier " + (tallier == null ? "" : tallier.id() + " ")
                    + "did not say that the other " + peers.size() + " server(s) lost it too") + ": it stops serving"
                    + " before the cluster can fail it");

                return false;
            }

            default:
                break;
        }

        return true;
    }

    private List<ClusterNode> serverPeers() {
        List<ClusterNode> out = new ArrayList<>();
        Topology top = membership.topology();

        for (ClusterNode n : top.nodes()) {
            if (!n.isClient() && !n.id().equals(local.id()) && !leavers.contains(n.id()))
                out.add(n);
        }

        leavers.removeIf(id -> top.node(id) == null); // Gone from the topology: nothing to remember.

        return out;
    }

    private boolean connected() {
        return ctx.client().getZookeeperClient().isConnected();
    }

    /** The session timeout the ensemble granted this node: the clock every bound of the rule is set by. */
    private long sessionTimeout() {
        long t;

        try {
            t = ctx.client().getZookeeperClient().getZooKeeper().getSessionTimeout();
        }
        catch (Exception e) {
            t = 0;
        }

        // 0 once a server answered that the session expired (seen at 300 members: a deadline of 0 segmented at once).
        if (t > 0)
            knownTimeout = t;

        return knownTimeout > 0 ? knownTimeout : ctx.client().getZookeeperClient().getConnectionTimeoutMs();
    }

    @Override public void close() {
        timer.shutdownNow();
        checks.shutdownNow();
        probe.shutdown();

        synchronized (connectedMux) {
            connectedMux.notifyAll();
        }
    }
}
