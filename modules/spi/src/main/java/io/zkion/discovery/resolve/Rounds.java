package io.zkion.discovery.resolve;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.coordinator.CoordinatorTask;
import io.zkion.discovery.internal.NodeCapability;
import io.zkion.discovery.internal.Communication;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.InternalMessage;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.cluster.ClusterTopologyCheckedException;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.IgniteDiscoveryThread;
import org.apache.zookeeper.KeeperException;

/**
 * This node's part in communication-failure rounds (docs/design.md, "Split brain"): the calls that wait on a round,
 * and the round the log has open, whose check {@link RoundProbe} runs here. Every node learns of a round's start and
 * end from the log, at the same place; the coordinator's part ({@link RoundCoordinator}) opens and closes them.
 */
public final class Rounds implements InternalMessage.Sink {
    /** The node attribute that says a node takes part in rounds: while a node without it is in, none starts. */
    public static final String CAPABILITY_ATTR = "io.zkion.discovery.communicationFailureRounds";

    /** The attribute, with the version of the round protocol a node of this release speaks. */
    private static final NodeCapability CAPABILITY = new NodeCapability(CAPABILITY_ATTR, 1);

    /** How long a round may wait for reports, past which a node that has not reported reaches nobody. */
    private static final long REPORT_BOUND_MS = 15_000;

    private final RoundContext ctx;
    private final RoundProbe probe;

    private final Object mux = new Object();

    /** Guarded by {@link #mux}: the round the log has open, the rounds ended here, and whether this node stopped. */
    private OpenRound open;
    private long ended;
    private boolean closed;

    /** Connections to ZooKeeper re-established: a coordinator gives an open round its bound again after each. */
    private final AtomicLong reconnections = new AtomicLong();

    /** The nodes rounds removed: a verdict comes before the failures it logs, and a released call asks here first. */
    private final Set<UUID> killed = new HashSet<>();

    public Rounds(ZkStore store, ObjectCodec objects, ControlCodec codec, ZkIonClusterNode local, IgniteLogger log, DiscoveryMetrics metrics,
        Communication comm, Supplier<Topology> topology, Supplier<Long> sessionTimeout) {
        this.ctx = new RoundContext(store, objects, codec, local, log, metrics, comm, topology, sessionTimeout);
        this.probe = new RoundProbe(ctx);
    }

    /** @return {@code attrs} with the attribute that says this node takes part in rounds. */
    public static Map<String, Object> withCapability(Map<String, Object> attrs) {
        return CAPABILITY.advertise(attrs);
    }

    /**
     * Decides on a peer this node's communication cannot reach: waits, bounded, for it to fail on its own, then for a
     * round's verdict. Returns if the peer stays; throws Ignite's "node failed" if it is out.
     */
    public void resolve(ClusterNode peer, Exception err) {
        if (peer.isClient()) {
            ctx.log.info("Not resolving a communication failure with client " + peer.id() + ": a client peer gives no"
                + " round (" + err + ')');
            return;
        }

        // Counted as the stock SPI counts them: a failure taken up, never one with a client peer.
        ctx.metrics.onCommunicationError();

        // The thread that applies the log cannot wait for a verdict the log brings.
        if (Thread.currentThread() instanceof IgniteDiscoveryThread) {
            ctx.log.warning("Not resolving a communication failure with " + peer.id() + " on the discovery thread (" + err
                + ')');
            return;
        }

        if (!inTopology(peer))
            throw failed(peer);

        // The report's start, so that an operator can time a verdict from it.
        ctx.log.info("Communication failure with " + peer.id() + " reported (" + err + "): waiting up to "
            + (ctx.sessionTimeout.get() + 1_000) + " ms for it to fail on its own, then for a round's verdict");

        if (awaitGone(peer, ctx.sessionTimeout.get() + 1_000))
            throw failed(peer);

        String off = off(ctx.topology.get().nodes(), ctx.comm);

        if (off != null) {
            ctx.log.warning("Not resolving the communication failure with " + peer.id() + ": " + off);
            return;
        }

        long before;
        boolean ask;

        synchronized (mux) {
            if (closed)
                throw new IgniteSpiException("This node stops: no round for the communication failure with " + peer.id());

            before = ended;
            ask = open() == null; // A round open already checks every node now: this call waits on its verdict.
        }

        if (ask && !ask())
            return;

        boolean decided = awaitVerdict(before, boundMs() + ctx.sessionTimeout.get() + 5_000);

        if (removed(peer) || !inTopology(peer))
            throw failed(peer);

        if (!decided) {
            ctx.log.warning("No communication failure round decided on " + peer.id() + " in time; it stays in the"
                + " topology");
        }
    }

    /** @return Why no round can start among {@code nodes}; null if one can. */
    static String off(Collection<ClusterNode> nodes, Communication comm) {
        if (comm == null)
            return "this node has no Ignite communication to check connections with";

        for (ClusterNode n : nodes) {
            if (!CAPABILITY.of(n))
                return "node " + n.id() + " runs a release of ZkIon without communication failure rounds";
        }

        return null;
    }

    /** @return How long the coordinator waits for reports before it decides without the missing ones. */
    long boundMs() {
        return REPORT_BOUND_MS + ctx.sessionTimeout.get();
    }

    @Override public void onLogged(long topVer, Collection<ClusterNode> snapshot, InternalMessage msg) {
        if (msg instanceof RoundStart) {
            OpenRound r = new OpenRound(((RoundStart)msg).round, topVer, snapshot);

            synchronized (mux) {
                open = r;
                mux.notifyAll();
            }

            ctx.log.info("Communication failure round " + r.id + " started: checking the connections to "
                + snapshot.size() + " node(s) [topVer=" + topVer + ']');
            probe.check(r);
        }
        else if (msg instanceof RoundEnd) {
            RoundEnd end = (RoundEnd)msg;

            synchronized (mux) {
                if (open != null && open.id.equals(end.round))
                    open = null;

                killed.addAll(end.killed);
                ended++;
                mux.notifyAll();
            }

            ctx.log.info("Communication failure round " + end.round + " ended: " + (end.killed.isEmpty()
                ? "no node removed" : "removed " + end.killed) + " (" + end.why + ')');
        }
    }

    @Override public void onDeparture() {
        synchronized (mux) {
            mux.notifyAll();
        }
    }

    /**
     * The connection to ZooKeeper is back after a loss: a report of this node's that could not be written is written
     * now, and the coordinator starts its bound again, so that an outage does not count as nodes reaching nobody.
     */
    public void onReconnected() {
        reconnections.incrementAndGet();

        OpenRound r = open();

        if (r != null)
            probe.rewrite(r);
    }

    /** @return How often the connection to ZooKeeper was re-established. */
    long reconnections() {
        return reconnections.get();
    }

    /** This node stops: calls that wait return at once. */
    public void close() {
        synchronized (mux) {
            closed = true;
            mux.notifyAll();
        }
    }

    /**
     * @return The round the log has open here; null if none. One without this node is of an earlier membership: a
     *      client that rejoined (under a new id) no longer reads the log where it ends.
     */
    OpenRound open() {
        synchronized (mux) {
            if (open != null && !open.has(ctx.local.id()))
                open = null;

            return open;
        }
    }

    /** @return Whether this node has a round open: after a verdict, none may stay open anywhere. */
    @TestSeam
    public boolean openForTest() {
        return open() != null;
    }

    /** @return The coordinator's part, for each coordinator this node becomes. */
    public CoordinatorTask.Factory coordinatorTasks(Runnable trigger) {
        return out -> new RoundCoordinator(ctx, this, out, trigger);
    }

    private boolean removed(ClusterNode n) {
        synchronized (mux) {
            return killed.contains(n.id());
        }
    }

    private boolean inTopology(ClusterNode n) {
        return ctx.topology.get().contains(n.id());
    }

    /** @return Whether {@code peer} left the topology within {@code ms}. */
    private boolean awaitGone(ClusterNode peer, long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);

        synchronized (mux) {
            while (inTopology(peer) && !closed) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());

                if (left <= 0)
                    return false;

                waitOn(left);
            }
        }

        return !inTopology(peer);
    }

    /** @return Whether a round ended after {@code before} within {@code ms}. */
    private boolean awaitVerdict(long before, long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);

        synchronized (mux) {
            while (ended == before && !closed) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());

                if (left <= 0)
                    return false;

                waitOn(left);
            }

            if (closed && ended == before)
                throw new IgniteSpiException("This node stops: no verdict on the communication failure");

            return true;
        }
    }

    private void waitOn(long ms) {
        try {
            mux.wait(ms);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IgniteSpiException("Interrupted while waiting for a communication failure round", e);
        }
    }

    /** @return Whether the call reached ZooKeeper. */
    private boolean ask() {
        ZkPaths paths = ctx.store.paths();

        try {
            ctx.store.client().create().creatingParentsIfNeeded().forPath(paths.commAsk(ctx.local.id()));
        }
        catch (KeeperException.NodeExistsException already) {
            // Another call of this node asked; the round takes both.
        }
        catch (Exception e) {
            ctx.log.warning("Cannot ask for a communication failure round; the peer stays: " + e);
            return false;
        }

        return true;
    }

    private static IgniteSpiException failed(ClusterNode peer) {
        String msg = "Node failed: " + peer.id();

        return new IgniteSpiException(msg, new ClusterTopologyCheckedException(msg));
    }
}
