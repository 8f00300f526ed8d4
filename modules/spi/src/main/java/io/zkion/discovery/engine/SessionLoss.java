package io.zkion.discovery.engine;

import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import java.util.Collections;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.ignite.IgniteLogger;

/**
 * Losing the cluster: the ZooKeeper session ends, or the cluster declares this node failed. A client then
 * rejoins, if allowed; any other node is segmented and stops.
 */
final class SessionLoss {
    private final EngineContext ctx;
    private final ZkIonClusterNode local;
    private final Notifier notifier;
    private final IgniteLogger log;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final RoleSwitch role;
    private final LogWatch watch;
    private final DiscoveryLoop loop;
    private final Joining joining;
    private final OutageGuard outage;

    SessionLoss(EngineContext ctx, Lifecycle lifecycle, Membership membership, RoleSwitch role, LogWatch watch,
        DiscoveryLoop loop, Joining joining, OutageGuard outage) {
        this.ctx = ctx;
        this.local = ctx.local();
        this.notifier = ctx.notifier();
        this.log = ctx.log();
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.role = role;
        this.watch = watch;
        this.loop = loop;
        this.joining = joining;
        this.outage = outage;
    }

    /** Curator's news of the connection, on Curator's thread. */
    void onConnectionState(ConnectionState s) {
        logConnectionState(s);

        if (s == ConnectionState.SUSPENDED) {
            ctx.metrics().onSuspended();
            outage.suspended();
        }

        if (s == ConnectionState.RECONNECTED || s == ConnectionState.LOST)
            outage.ended(s == ConnectionState.RECONNECTED);

        if (s == ConnectionState.RECONNECTED) {
            watch.markAllDirty(); // Watches may have missed changes while disconnected.
            loop.trigger(); // Same session or a new one: the cycle tells which.
        }

        if (s == ConnectionState.LOST) {
            ctx.metrics().onSessionLost();

            // The session lost is the one joined with now; once a rejoin has replaced it, this news is stale.
            long lost = membership.sessionId();

            try {
                loop.execute(() -> {
                    if (membership.sessionId() == lost)
                        onExcluded();
                });
            }
            catch (RejectedExecutionException ignored) {
                // Stopping.
            }
        }
    }

    /**
     * Says what the connection to ZooKeeper did, with the session and the server: an operator reading of a segmented
     * node must be able to tell a suspension that healed from a session that was lost.
     */
    private void logConnectionState(ConnectionState s) {
        if (s != ConnectionState.SUSPENDED && s != ConnectionState.RECONNECTED && s != ConnectionState.LOST)
            return;

        String session;
        String server;

        try {
            session = Long.toHexString(ctx.client().getZookeeperClient().getZooKeeper().getSessionId());
            server = ctx.client().getZookeeperClient().getCurrentConnectionString();
        }
        catch (Exception e) {
            session = "unknown";
            server = "unknown";
        }

        String what = "ZooKeeper connection " + s + " [node=" + local.id() + ", session=0x" + session + ", servers="
            + server + ']';

        if (s == ConnectionState.RECONNECTED)
            log.info(what);
        else if (s == ConnectionState.SUSPENDED)
            log.warning(what + ": discovery waits for it to come back");
        else
            log.warning(what + ": the session is gone, and this node with it");
    }

    /** Makes the discovery thread find this node excluded: Ignite asked a client to reconnect, or a test. */
    void excludeSoon() {
        loop.submit(this::onExcluded);
    }

    /** Closes this node's ZooKeeper session abruptly, as a crash would, and lets the node find itself excluded. */
    void simulateFailure() {
        CuratorFramework client = ctx.client();

        // The ZooKeeper handle first: that ends the session at once, as a crash would (Curator's own close first
        // winds down its services). Then the whole client, so that every pending call fails fast and the
        // discovery thread gets to the exclusion instead of retrying on a dead handle.
        try {
            client.getZookeeperClient().getZooKeeper().close();
        }
        catch (Exception ignored) {
            // Closed by Curator below anyway.
        }

        client.close();

        excludeSoon();
    }

    /** This node is out: its session is gone, or the cluster declared it failed. */
    void onExcluded() {
        if (!lifecycle.is(State.JOINED))
            return;

        role.resign();

        if (local.isClient() && ctx.clientReconnect())
            reconnect();
        else
            segmented();
    }

    /**
     * The outage guard found this node cut off from ZooKeeper alone: Ignite hears of the segmentation at once, from
     * the guard's thread, since the discovery thread may be held in a ZooKeeper call that waits for the connection;
     * the rest of the way out follows on the discovery thread.
     */
    void cutOff(String reason) {
        if (!lifecycle.segmented())
            return;

        log.error("Segmenting this node: " + reason);
        notifySegmented();

        try {
            loop.execute(() -> {
                role.resign();
                watch.close();
                leaveMembership();
            });
        }
        catch (RejectedExecutionException ignored) {
            // Stopping: the stop closes what is left.
        }
    }

    /** Stops the node for good and tells Ignite it is segmented; nothing if it stopped already. */
    void segmented() {
        if (!lifecycle.segmented())
            return;

        role.resign();
        watch.close();
        leaveMembership();

        log.warning("This node is no longer part of the cluster (its ZooKeeper session or membership was lost)");
        notifySegmented();
    }

    private void notifySegmented() {
        Topology top = membership.topology();

        notifier.segmented(Math.max(1, top.topVer()), local, top.contains(local.id()) ? top.nodes()
            : Collections.singletonList(local));
    }

    /**
     * Takes this node's alive znode away before Ignite hears of the segmentation: the cluster then fails it out, even
     * if Ignite keeps the node running or its listener never returns, where the znode and its ack, kept by a live
     * session, would hold every trim from then on.
     */
    private void leaveMembership() {
        ctx.store().deleteQuietly(ctx.paths().alive(local.id())); // Gone already after a lost session.
    }

    /** A client rejoins under a new id, with DISCONNECTED before and RECONNECTED after, as Ignite expects. */
    private void reconnect() {
        if (!lifecycle.disconnected())
            return; // Stopped meanwhile: the stop closes what is left.

        watch.close();

        Topology top = membership.member().topology();

        notifier.disconnected(top.topVer(), local, top.nodes());

        UUID oldId = local.id();

        ctx.store().deleteQuietly(ctx.paths().alive(oldId));
        local.newId(UUID.randomUUID());
        local.attributes(ctx.host().nodeAttributes());

        log.info("Client node rejoining [oldId=" + oldId + ", newId=" + local.id() + ']');

        try {
            ctx.hooks().beforeReconnect();

            joining.join();

            Member m = membership.member();

            notifier.reconnected(m.topology().topVer(), local, m.topology().nodes());

            watch.start();
            loop.trigger();
        }
        catch (Exception e) {
            if (lifecycle.is(State.STOPPED))
                return; // Stopped while rejoining: nothing to report.

            // DISCONNECTED, or JOINED if the rejoin failed past the handshake: segmented from either.
            log.error("Client node failed to rejoin: " + e, e);
            segmented();
        }
    }
}
