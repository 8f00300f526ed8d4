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

    /** How long a stopping node waits for ZooKeeper to take its left/ marker. */
    private static final long LEAVE_MARK_WAIT_MS = 3_000;

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

    private Set<UUID> alive = new HashSet<>();

    /** Appends of one message in a row that met a moving gate, before it goes through the coordinator instead. */
    private static final int MAX_APPEND_ATTEMPTS = 3;

    private final LogGate<GateState> gate;
    private final Object sendLock = new Object();

    /** Paths of this node's messages in the coordinator's queue, not known to be logged yet. */
    private final List<String> queued = new java.util.ArrayList<>();

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
        this.gate = new LogGate<>(client, paths.gate, data -> codec.decodeGate(data, paths.gate), g -> g.open);
        this.loop = new DiscoveryLoop(host.igniteInstanceName(), this::cycle);
        this.watch = new LogWatch(ctx, loop);
        this.role = new RoleSwitch(ctx, membership, watch, loop);
        this.acks = new AckWriter(ctx, lifecycle, membership, loop);
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
            markLeaving();

        DiscoveryLoop.Future0 f = loop.submit(() -> {
            if (prev == State.JOINED && !withOthers) {
                if (role.coordinatesAlone() && membership.member().topology().size() <= 1)
                    removeCluster();
                else
                    markLeaving();
            }

            role.resign();
            watch.close();
        });

        f.await(5_000);
        loop.shutdown();
    }

    /** Writes this node's left/ marker, waiting a bounded time: a stop must not hang on an unreachable ZooKeeper. */
    private boolean markLeaving() {
        java.util.concurrent.CompletableFuture<Integer> rc = new java.util.concurrent.CompletableFuture<>();

        try {
            store.client().create().inBackground((c, e) -> rc.complete(e.getResultCode())).forPath(paths.left(local.id()));

            int code = rc.get(LEAVE_MARK_WAIT_MS, TimeUnit.MILLISECONDS);

            if (code == org.apache.zookeeper.KeeperException.Code.OK.intValue()
                || code == org.apache.zookeeper.KeeperException.Code.NODEEXISTS.intValue())
                return true;

            log.warning("Failed to mark this node as leaving (ZooKeeper result " + code + "); the others will see it fail");
        }
        catch (TimeoutException e) {
            log.warning("ZooKeeper did not take this node's leaving mark within " + LEAVE_MARK_WAIT_MS
                + " ms; the others will see it fail");
        }
        catch (Exception e) {
            log.warning("Failed to mark this node as leaving; the others will see it fail: " + e);
        }

        return false;
    }

    /**
     * The last node out takes the cluster's persistent nodes with it. A node joining meanwhile keeps its request,
     * its data znode and their parts: it founds the next cluster or joins one.
     */
    private void removeCluster() {
        java.util.Set<String> joiningParts = new java.util.HashSet<>();

        try {
            for (String name : store.children(paths.join)) {
                joiningParts.addAll(store.partsOf(paths.join + "/" + name));
                joiningParts.addAll(store.partsOf(paths.nodes + "/" + name));
            }
        }
        catch (Exception e) {
            log.warning("Failed to list the joining nodes' parts; leaving " + paths.parts + " as it is: " + e);
            joiningParts = null;
        }

        for (String dir : new String[] {paths.log, paths.custom, paths.joined, paths.left, paths.nodes, paths.parts}) {
            if (dir.equals(paths.parts) && joiningParts == null)
                continue;

            try {
                for (String name : dir.equals(paths.nodes) ? store.dataZnodesNotJoining() : store.children(dir)) {
                    String path = dir + "/" + name;

                    if (joiningParts == null || !joiningParts.contains(path))
                        store.deleteQuietly(path);
                }
            }
            catch (Exception e) {
                log.warning("Failed to clean " + dir + ": " + e);
            }
        }

        store.deleteQuietly(paths.state);
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
        Topology t = topology();

        for (ClusterNode n : t.nodes()) {
            if (!n.isClient())
                return n;
        }

        return null;
    }

    public boolean pingNode(UUID id) {
        if (local.id().equals(id))
            return true;

        if (!topology().contains(id))
            return false;

        try {
            return store.exists(paths.alive(id));
        }
        catch (Exception e) {
            log.warning("Failed to ping " + id + " through ZooKeeper: " + e);
            return false;
        }
    }

    public boolean knownNode(UUID id) {
        try {
            return topology().contains(id) || store.exists(paths.alive(id));
        }
        catch (Exception e) {
            return false;
        }
    }

    /** Removes a client's alive node; the coordinator then reports it failed, and the client rejoins or stops. */
    public void failNode(UUID id, String warning) {
        ZkIonClusterNode n = topology().node(id);

        if (n == null || !n.isClient()) {
            log.warning("Only client nodes can be failed through discovery; ignoring the request for " + id
                + (warning != null ? " (" + warning + ")" : ""));
            return;
        }

        store.deleteQuietly(paths.alive(id));
    }

    /**
     * Sends a custom message. A plain message goes straight into the log, one ZooKeeper write, checked against
     * the log gate: the log's order is the cluster's order. It goes through the coordinator's queue instead when
     * it is mutable (Ignite expects the coordinator to see it first), when the gate is closed (the coordinator is
     * taking a join in), or while an earlier message of this node waits there (this node's messages keep their
     * order).
     */
    public void sendCustom(DiscoverySpiCustomMessage msg) {
        State state = lifecycle.state();

        if (state == State.DISCONNECTED)
            throw new org.apache.ignite.IgniteClientDisconnectedException(null, "Client node is disconnected");

        if (state != State.JOINED)
            throw new IgniteException("Failed to send a custom message: this node is not in the cluster (" + state + ')');

        if (!ctx.hooks().beforeSend(msg))
            return;

        byte[] data = objects.marshal(msg);

        try {
            synchronized (sendLock) {
                for (int attempt = 0; attempt < MAX_APPEND_ATTEMPTS && !msg.isMutable() && !queuedAhead(); attempt++) {
                    LogGate.Seen<GateState> open = gate.openOrNull();

                    if (open == null)
                        break;

                    if (append(data, open.value.format, open.version) != null)
                        return;

                    gate.invalidate(); // It moved since it was read: read it again.
                    metrics.onGateWait();
                }

                queued.add(append(data, membership.joinedState().format, -1));
            }
        }
        catch (Exception e) {
            throw new IgniteException("Failed to send a custom message through ZooKeeper: " + e, e);
        }
    }

    /** @return Whether a message this node queued for the coordinator is not in the log yet. */
    private boolean queuedAhead() throws Exception {
        // The coordinator deletes a queued message in the same multi that logs it.
        for (java.util.Iterator<String> it = queued.iterator(); it.hasNext(); ) {
            if (!store.exists(it.next()))
                it.remove();
        }

        return !queued.isEmpty();
    }

    /**
     * Writes one custom message into the log, checked against the gate at {@code gateVersion}, or, if that is
     * negative, into the coordinator's queue.
     *
     * @return The path created, or null if the gate moved.
     */
    private String append(byte[] data, String format, int gateVersion) throws Exception {
        FormatId fmt = FormatId.ofWireName(format);
        List<DiscoveryEvent> events = java.util.Collections.singletonList(DiscoveryEvent.custom(0, 0, local.id(), data));
        Member member = membership.member();
        LogEntryWriter.Draft p = gateVersion >= 0
            ? entries.logEntry(member.clusterId(), 0, events, fmt == null ? FormatId.ION_1 : fmt)
            : entries.queued(member.clusterId(), events, fmt == null ? FormatId.ION_1 : fmt);
        List<org.apache.curator.framework.api.transaction.CuratorOp> ops = new java.util.ArrayList<>(p.prepared.ops);

        if (gateVersion >= 0)
            ops.add(gate.checkOp(gateVersion));

        String created;

        try {
            created = store.commit(ops).get(0).getResultPath();
        }
        catch (org.apache.zookeeper.KeeperException.BadVersionException moved) {
            return null;
        }

        metrics.onWritten(p.size);

        return created;
    }

    public ZkStore store() {
        return store;
    }

    public long pendingEntries() {
        Member m = membership.member();

        return m == null ? 0 : m.entries().size();
    }

    public Collection<ClusterNode> remoteNodes() {
        List<ClusterNode> out = new java.util.ArrayList<>();

        for (ClusterNode n : topology().nodes()) {
            if (!n.id().equals(local.id()))
                out.add(n);
        }

        return out;
    }
}
