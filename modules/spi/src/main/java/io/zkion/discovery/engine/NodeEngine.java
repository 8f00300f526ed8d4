package io.zkion.discovery.engine;

import io.zkion.discovery.internal.*;
import io.zkion.discovery.member.*;
import io.zkion.discovery.coordinator.*;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.CopyStats;
import io.zkion.discovery.codec.ion.TopologySnapshotCodec;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.log.LogEntryWriter;
import io.zkion.discovery.zk.LogGate;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.ignite.IgniteException;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;

/**
 * The discovery engine of one node: lifecycle, the discovery thread, watches, and the switch between the
 * member and coordinator roles. States: NEW, then JOINING, JOINED, and STOPPED at the end; a client that
 * lost its session is DISCONNECTED until it has rejoined.
 * <p>
 * Every ZooKeeper notification only schedules one "cycle" on the discovery thread; a cycle catches up with
 * the log, checks this node is still alive, settles who coordinates and lets the coordinator work. So all
 * state changes happen on one thread, in one order.
 */
public final class NodeEngine {
    /** The engine's states. */
    public enum State { NEW, JOINING, JOINED, DISCONNECTED, STOPPED }

    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final EventFormats formats;
    private final ObjectCodec objects;
    private final DiscoveryHost host;
    private final ZkIonClusterNode local;
    private final DiscoveryMetrics metrics;
    private final Notifier notifier;
    private final TopologySnapshotCodec snapshots;
    private final IgniteLogger log;
    private final LogEntryWriter entries;
    private final EngineContext ctx;
    private final Lifecycle lifecycle = new Lifecycle();
    private final Membership membership;
    private final DiscoveryLoop loop;
    private final LogWatch watch;
    private final RoleSwitch role;
    private final AckWriter acks;
    private final MessageSender sender;
    private final Leaving leaving;
    private final Queries queries;

    private Set<UUID> alive = new HashSet<>();

    public NodeEngine(CuratorFramework client, String root, int requestLimit, EventFormats formats,
        ControlCodec codec, ObjectCodec objects, DiscoveryHost host, ZkIonClusterNode local, long joinTimeout,
        boolean clientReconnect, DiscoveryMetrics metrics) {
        this.ctx = new EngineContext(client, root, requestLimit, formats, codec, objects, host, local, joinTimeout,
            clientReconnect, metrics);
        this.paths = ctx.paths();
        this.store = ctx.store();
        this.codec = codec;
        this.formats = formats;
        this.objects = objects;
        this.host = host;
        this.local = local;
        this.metrics = metrics;
        this.log = ctx.log();
        this.entries = ctx.entries();
        this.notifier = ctx.notifier();
        this.snapshots = ctx.snapshots();
        this.membership = new Membership(ctx, lifecycle);
        this.sender = new MessageSender(ctx, lifecycle, membership);
        this.loop = new DiscoveryLoop(host.igniteInstanceName(), this::cycle);
        this.watch = new LogWatch(ctx, loop);
        this.role = new RoleSwitch(ctx, membership, watch, loop);
        this.acks = new AckWriter(ctx, lifecycle, membership, loop);
        this.leaving = new Leaving(ctx);
        this.queries = new Queries(ctx, membership);
    }

    // ---- Lifecycle.

    /** Joins the cluster; returns once this node has its own NODE_JOINED. */
    public void start() {
        store.client().getConnectionStateListenable().addListener((c, s) -> onConnectionState(s));

        try {
            store.ensureLayout();
            store.createIfAbsent(paths.gate, codec.encode(new GateState(true, formats.preferred().wireName())));
            refuseStockLayout();
        }
        catch (IgniteSpiException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IgniteSpiException("Failed to prepare " + paths.root + " in ZooKeeper: " + e, e);
        }

        if (!lifecycle.startJoining())
            throw new IgniteSpiException("Stopped while joining");

        awaitJoin(joinAsync(), "Waiting for this node to join");
    }

    private void refuseStockLayout() throws Exception {
        if (store.exists(paths.root + "/e") || store.exists(paths.root + "/jd")) {
            throw new IgniteSpiException(paths.root + " holds the znodes of Ignite's stock ZookeeperDiscoverySpi: "
                + "give ZkIonDiscoverySpi its own zkRootPath (the two layouts cannot share a root)");
        }
    }

    private CompletableFuture<Void> joinAsync() {
        CompletableFuture<Void> done = new CompletableFuture<>();

        loop.execute(() -> {
            try {
                ctx.hooks().beforeJoin();

                newJoiner().join(membership::adopt);

                acks.joined();

                watch.start();
                cycle();

                done.complete(null);
            }
            catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });

        return done;
    }

    private void awaitJoin(CompletableFuture<Void> fut, String what) {
        while (true) {
            try {
                fut.get(10, TimeUnit.SECONDS);

                return;
            }
            catch (TimeoutException e) {
                log.info(what + " [node=" + local.id() + ", root=" + paths.root + ']');
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IgniteSpiException("Interrupted while joining", e);
            }
            catch (ExecutionException e) {
                Throwable c = e.getCause();

                if (c instanceof IgniteSpiException)
                    throw (IgniteSpiException)c;

                throw new IgniteSpiException("Failed to join: " + c, c);
            }
        }
    }

    private Joiner newJoiner() {
        return new Joiner(store, codec, formats, objects, host, local, notifier, snapshots, ctx.joinTimeout());
    }

    /** Leaves gracefully: a left/ marker, then the session closes and takes the ephemeral nodes with it. */
    public void stop() {
        State prev = lifecycle.stop();

        // Not alone: the marker goes first, from this thread, without queueing behind the discovery thread's
        // work; the coordinator logs NODE_LEFT as soon as it sees it.
        boolean withOthers = prev == State.JOINED && membership.member().topology().size() > 1;

        if (withOthers)
            leaving.markLeaving();

        DiscoveryLoop.Future0 f = loop.submit(() -> {
            if (prev == State.JOINED && !withOthers) {
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
    }

    // ---- The cycle.

    private void cycle() {
        if (!lifecycle.is(State.JOINED))
            return;

        try {
            Member member = membership.member();

            if (membership.sessionReplaced()) {
                onExcluded(); // A new session: this node's alive znode went with the old one.
                return;
            }

            Applied applied = new Applied();

            if (watch.takeLogDirty())
                applied = member.catchUp();
            else {
                List<String> created = watch.drainCreated();
                List<String> deleted = watch.drainDeleted();

                if (!created.isEmpty())
                    applied = member.catchUpCreated(created);

                if (!deleted.isEmpty())
                    member.onDeleted(deleted);
            }

            if (member.excluded()) {
                onExcluded();
                return;
            }

            if (!lifecycle.is(State.JOINED))
                return;

            if (watch.takeAliveDirty())
                alive = aliveIds();

            if (!alive.contains(local.id())) {
                onExcluded();
                return;
            }

            // A client with no server left (the cluster stopped or restarts) rejoins whatever comes up next.
            if (local.isClient() && member.topology().oldestServer(alive) == null) {
                onExcluded();
                return;
            }

            role.settle(alive);
            role.step(alive);

            acks.ack(applied);
        }
        catch (FencedException e) {
            log.info(e.getMessage());
            role.resign();
            watch.markAllDirty();
            loop.trigger();
        }
        catch (IgniteSpiException e) {
            // A corrupt log entry: never skip it, that would fork this node's view. Fail loudly instead.
            log.error("Discovery cannot go on: " + e.getMessage(), e);
            segmented();
        }
        catch (Exception e) {
            if (lifecycle.is(State.JOINED)) {
                log.warning("Discovery cycle failed, will retry on the next change: " + e, e);
                watch.markAllDirty();
                loop.triggerAfter(200);
            }
        }
    }

    private Set<UUID> aliveIds() throws Exception {
        Set<UUID> ids = new HashSet<>();

        for (String name : store.children(paths.alive)) {
            UUID id = ZkPaths.nodeId(name);

            if (id != null)
                ids.add(id);
        }

        return ids;
    }

    // ---- Losing the cluster.

    private void onConnectionState(ConnectionState s) {
        if (s == ConnectionState.RECONNECTED) {
            watch.markAllDirty(); // Watches may have missed changes while disconnected.
            loop.trigger(); // Same session or a new one: the cycle tells which.
        }

        if (s == ConnectionState.LOST) {
            metrics.onConnectionLoss();

            // The session lost is the one joined with now; once a rejoin has replaced it, this news is stale.
            long lost = membership.sessionId();

            try {
                loop.execute(() -> {
                    if (membership.sessionId() == lost)
                        onExcluded();
                });
            }
            catch (java.util.concurrent.RejectedExecutionException ignored) {
                // Stopping.
            }
        }
    }

    /** This node is out: its session is gone, or the cluster declared it failed. */
    private void onExcluded() {
        if (!lifecycle.is(State.JOINED))
            return;

        role.resign();

        if (local.isClient() && ctx.clientReconnect())
            reconnect();
        else
            segmented();
    }

    private void segmented() {
        if (!lifecycle.segmented())
            return;

        role.resign();
        watch.close();

        Topology top = membership.topology();

        log.warning("This node is no longer part of the cluster (its ZooKeeper session or membership was lost)");
        notifier.segmented(Math.max(1, top.topVer()), local, top.contains(local.id()) ? top.nodes()
            : java.util.Collections.singletonList(local));
    }

    /** A client rejoins under a new id, with DISCONNECTED before and RECONNECTED after, as Ignite expects. */
    private void reconnect() {
        if (!lifecycle.disconnected())
            return; // Stopped meanwhile: the stop closes what is left.

        watch.close();

        Topology top = membership.member().topology();

        notifier.disconnected(top.topVer(), local, top.nodes());

        UUID oldId = local.id();

        store.deleteQuietly(paths.alive(oldId));
        local.newId(UUID.randomUUID());
        local.attributes(host.nodeAttributes());

        log.info("Client node rejoining [oldId=" + oldId + ", newId=" + local.id() + ']');

        try {
            ctx.hooks().beforeReconnect();
            ctx.hooks().beforeJoin();

            newJoiner().join(membership::adopt);

            acks.joined();

            Member m = membership.member();

            notifier.reconnected(m.topology().topVer(), local, m.topology().nodes());

            watch.start();
            loop.trigger();
        }
        catch (Exception e) {
            if (lifecycle.is(State.STOPPED))
                return; // Stopped while rejoining: nothing to report.

            log.error("Client node failed to rejoin: " + e, e);
            segmented();
        }
    }

    /** Closes this node's ZooKeeper session abruptly, as a crash would, and lets the node find itself excluded. */
    public void simulateFailure() {
        // The ZooKeeper handle first: that ends the session at once, as a crash would (Curator's own close first
        // winds down its services). Then the whole client, so that every pending call fails fast and the
        // discovery thread gets to the exclusion instead of retrying on a dead handle.
        try {
            store.client().getZookeeperClient().getZooKeeper().close();
        }
        catch (Exception ignored) {
            // Closed by Curator below anyway.
        }

        store.client().close();

        loop.submit(this::onExcluded);
    }

    public void hooks(TestHooks hooks) {
        ctx.hooks(hooks);
    }

    /** Ignite asked a client to reconnect. */
    public void clientReconnect() {
        loop.submit(this::onExcluded);
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

    /** Sends a custom message through the log, or through the coordinator's queue where it must. */
    public void sendCustom(DiscoverySpiCustomMessage msg) {
        sender.send(msg);
    }

    public ZkStore store() {
        return store;
    }

    public long pendingEntries() {
        Member m = membership.member();

        return m == null ? 0 : m.entries().size();
    }

    public Collection<ClusterNode> remoteNodes() {
        return queries.remoteNodes();
    }
}
