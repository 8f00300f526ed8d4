package io.zkion.discovery.engine;

import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.codec.ion.TopologySnapshotCodec;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.JoinRequest;
import io.zkion.discovery.codec.msg.JoinResult;
import io.zkion.discovery.codec.msg.JoinResult.Refusal;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.internal.AliveRecord;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.NodeDataReader;
import io.zkion.discovery.member.SharedCommonReader;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

/**
 * The join handshake, as an explicit sequence: publish the request, announce the node alive, then either
 * found the cluster (no live cluster in ZooKeeper) or wait for the coordinator's answer.
 */
final class Joiner {
    /** Before a second, whole request: a coordinator sees this node's alive znode gone meanwhile. */
    private static final long RETRY_PAUSE_MS = 1_000;

    /** How long a second request waits for an answer when {@code joinTimeout} is 0 (forever). */
    private static final long RETRY_WAIT_MS = 60_000;

    /** Which of a join's requests is out: its wait for an answer, and what a wait in vain says, follow from it. */
    private enum Attempt {
        /** The request as the cluster's format has it, by reference in ion-2; waits {@code joinTimeout}. */
        FIRST,

        /** A whole request, after a coordinator refused the first as unreadable. */
        WHOLE_AFTER_UNREADABLE
    }

    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final EventFormats formats;
    private final ObjectCodec objects;
    private final DiscoveryHost host;
    private final ZkIonClusterNode local;
    private final Notifier notifier;
    private final TopologySnapshotCodec snapshots;
    private final long joinTimeout;
    private final NodeDataReader nodeData;
    private final Founder founder;
    private final IgniteLogger log;

    /** A test's fault, run once the request is written and before the wait: an expiry, say. */
    private final Runnable afterRequest;

    /** Whether the node is being stopped: the wait for an answer gives up. */
    private final BooleanSupplier stopped;

    Joiner(EngineContext ctx, BooleanSupplier stopped) {
        this.stopped = stopped;
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.codec = ctx.codec();
        this.formats = ctx.formats();
        this.objects = ctx.objects();
        this.host = ctx.host();
        this.local = ctx.local();
        this.notifier = ctx.notifier();
        this.snapshots = ctx.snapshots();
        this.joinTimeout = ctx.joinTimeout();
        this.nodeData = new NodeDataReader(store, codec);
        this.founder = new Founder(store, codec, formats, objects, local, host, ctx.log());
        this.log = ctx.log();
        this.afterRequest = ctx.afterJoinRequest();
    }

    /**
     * Makes the member this join hands over to. Called before this node's own join is notified: Ignite sends
     * custom messages while it handles that notification, so the engine must count as joined already.
     */
    interface MemberFactory {
        /** @param session The ZooKeeper session the node's alive znode belongs to: the one it is a member in. */
        Member create(ClusterState state, long session);
    }

    /** Joins; the member this node continues as is handed to {@code members} on the way. */
    void join(MemberFactory members) throws Exception {
        UUID id = local.id();

        if (store.exists(paths.alive(id)))
            throw new IgniteSpiException("Node with the same ID already exists: " + id + " (" + paths.alive(id) + " is alive)");

        Object creds = local.credentials();
        byte[] nodeBytes = objects.marshal(local);
        byte[] joinData = joiningData();
        byte[] credBytes = creds == null ? null : objects.marshal(creds);
        boolean byRef = writesByReference();

        try {
            attempt(members, nodeBytes, joinData, credBytes, byRef, Attempt.FIRST);
        }
        catch (JoinRefusedException e) {
            // A coordinator of an older release reads only whole requests (or this node's data znode went): once more
            // with one.
            if (!byRef || e.refusal != Refusal.UNREADABLE_REQUEST)
                throw e;

            log.info("The coordinator could not read this node's join request by reference; asking again with the node"
                + " in the request [node=" + id + ", reason=" + e.getMessage() + ']');
            store.deleteQuietly(paths.node(id));

            // An older coordinator remembers the refusal by node id until it sees this node's alive znode gone: give it
            // the time to, and do not wait forever for an answer it may never give.
            Thread.sleep(RETRY_PAUSE_MS);
            attempt(members, nodeBytes, joinData, credBytes, false, Attempt.WHOLE_AFTER_UNREADABLE);
        }
    }

    /** One join request, answered or refused. */
    private void attempt(MemberFactory members, byte[] nodeBytes, byte[] joinData, byte[] credBytes, boolean byRef,
        Attempt attempt) throws Exception {
        UUID id = local.id();
        List<String> readable = formats.wireNames();
        // In ion-2 the node and its data go to its data znode, written once for everyone who needs them.
        byte[] request = codec.encode(byRef
            ? new JoinRequest(id, local.isClient(), readable, null, null, credBytes)
            : new JoinRequest(id, local.isClient(), readable, nodeBytes, joinData, credBytes));
        JoinRequestWriter writer = new JoinRequestWriter(store, id, request,
            byRef ? codec.encode(new NodeData(nodeBytes, joinData)) : null,
            codec.encode(AliveRecord.of(local, readable, 0, BuildInfo.release())), log);

        store.deleteQuietly(paths.joined(id)); // An answer left from an earlier attempt with this id.

        writer.write();
        afterRequest.run();

        // A data znode left by a join that fails from here on is the coordinator's to remove: it may have
        // committed the join already, and members then read the node from it.
        awaitAnswer(members, writer, attempt);
    }

    /**
     * @return Whether the cluster writes ion-2, as the gate says, so this node's data goes to its data znode. The
     *      gate outlives a stopped cluster; should a node of an older release found the next one, its refusal of
     *      the request sends this node back with a whole one.
     */
    private boolean writesByReference() throws Exception {
        if (!formats.readable().contains(FormatId.ION_2))
            return false;

        byte[] g = store.read(paths.gate);

        return g != null && FormatId.ION_2.wireName().equals(codec.decodeGate(g, paths.gate).format);
    }

    /**
     * @return Whether {@code attempt} waits a bound of its own. A second request that waited forever could hang on
     *      an older coordinator that still holds the refusal, so it has one unless {@code joinTimeout} sets one.
     */
    private boolean ownBound(Attempt attempt) {
        return attempt == Attempt.WHOLE_AFTER_UNREADABLE && joinTimeout <= 0;
    }

    private void awaitAnswer(MemberFactory members, JoinRequestWriter request, Attempt attempt) throws Exception {
        UUID id = local.id();
        // 0 waits as long as it takes.
        long timeout = ownBound(attempt) ? RETRY_WAIT_MS : joinTimeout;
        int rewritten = 0;
        Semaphore answered = new Semaphore(0);

        // A watch set anew each round, not a persistent one: ZooKeeper 3.8 cannot remove that, so it would stay on the
        // server for the node's whole session. Set before the answer is read, so that one written after wakes us; not
        // before a founding, which gets no answer.
        Watcher w = e -> answered.release();
        long start = System.currentTimeMillis();
        long nextLog = start + 10_000;

        while (true) {
            // Its stop interrupts this thread, but a library on the way may have cleared that: asked each round.
            if (stopped.getAsBoolean())
                throw new IgniteSpiException("Stopped while waiting for the coordinator to answer the join");

            // Asked before the answer is read: the coordinator's commit of a join sets the joiner's alive znode,
            // so with that gone and no answer after, no answer can come to this request.
            boolean requested = store.exists(paths.alive(id));

            if (requested && found(members))
                return;

            store.client().checkExists().usingWatcher(w).forPath(paths.joined(id));

            ZkStore.Payload answer = store.readPayload(paths.joined(id));
            JoinResult r = answer == null ? null : codec.decodeJoinResult(answer.data, paths.joined(id));

            if (r != null && (requested || !r.ok())) {
                try {
                    answered(r, members);
                    return;
                }
                catch (SessionEndedInJoin e) {
                    // As with an answer for a session gone: the request went with it, and is written again below.
                    log.warning("This node's ZooKeeper session ended after the coordinator accepted its join, while"
                        + " it read the members' data: asking again [node=" + id + ']');
                    continue;
                }
            }

            if (r != null) {
                // Accepted in a session that ended since: the coordinator fails that node once it sees its alive
                // znode gone, so starting on the answer would end in being failed. Joined afresh instead.
                log.warning("The coordinator accepted this node's join, but the ZooKeeper session it was accepted"
                    + " in ended before this node read the answer: asking again [node=" + id + ']');
                store.deleteQuietly(paths.joined(id));
            }

            long now = System.currentTimeMillis();

            if (!requested) {
                // The session ended and took the request along with the alive znode; Curator is in a new one.
                log.warning("This node's ZooKeeper session ended before the coordinator answered its join: writing"
                    + " the request again [node=" + id + ']');
                request.write();
                rewritten++;
            }

            if (timeout > 0 && now - start > timeout)
                throw noAnswer(attempt, rewritten);

            if (now >= nextLog) {
                log.info("Waiting for the coordinator to answer the join of " + id + " under " + paths.root);
                nextLog = now + 10_000;
            }

            // A watch wakes us at once; the timeout only re-checks whether the cluster died meanwhile.
            answered.tryAcquire(1, TimeUnit.SECONDS);
            answered.drainPermits();
        }
    }

    /** @return Whether this node founded the cluster; false too if its request went with its session meanwhile. */
    private boolean found(MemberFactory members) throws Exception {
        try {
            return founder.tryFound(members);
        }
        catch (KeeperException.NoNodeException requestGone) {
            // The founding multi sets this node's alive znode and removes its request: it wrote nothing. The next
            // round writes the request again. Or the last node of the cluster before, stopping, removed log/ and
            // custom/ after this node made the layout: made again, or every founding would fail so.
            local.clearOrder();
            store.createMissing(paths.sequential());

            return false;
        }
    }

    /** A wait in vain: where {@code joinTimeout} set the bound, it is what ran out, for either request. */
    private IgniteSpiException noAnswer(Attempt attempt, int rewritten) {
        if (ownBound(attempt)) {
            return new IgniteSpiException("No answer within " + RETRY_WAIT_MS + " ms to this node's second join"
                + " request, sent whole after the first was refused as unreadable: the coordinator may be"
                + " of an older release that still holds the refusal; restart this node");
        }

        return new IgniteSpiException("Failed to join the cluster within joinTimeout=" + joinTimeout
            + " ms: no coordinator answered (is a server node running with the same zkRootPath "
            + paths.root + "?)" + (rewritten == 0 ? "" : "; the request was written again " + rewritten
            + " time(s) after this node's ZooKeeper session ended"));
    }

    private byte[] joiningData() {
        DiscoveryDataBag bag = new DiscoveryDataBag(local.id(), local.isClient());

        host.exchange().collect(bag);

        return objects.marshal(new HashMap<>(bag.joiningNodeData()));
    }

    /** The session a join was accepted in ended while the joiner read what it needs: it asks again. */
    private static final class SessionEndedInJoin extends Exception {
        SessionEndedInJoin() {
            super(null, null, false, false);
        }
    }

    /**
     * @return The common data this node's answer left to its batch's shared znode, as stored.
     * @throws SessionEndedInJoin If it is gone with this node's session: the coordinator failed this node, and the
     *      trim of the batch no longer waited for it.
     */
    private ZkStore.Payload readShared(String path) throws Exception {
        try {
            return new SharedCommonReader(store, codec, objects).read(path, paths.joined(local.id()));
        }
        catch (SharedCommonReader.Gone | ZkDataException gone) { // Or its parts, swept after its manifest was read.
            long session = store.ephemeralOwner(paths.alive(local.id()));

            if (session == 0 || session != store.sessionId())
                throw new SessionEndedInJoin();

            throw gone;
        }
    }

    private void answered(JoinResult r, MemberFactory members) throws Exception {
        UUID id = local.id();

        store.deleteQuietly(paths.joined(id));

        if (!r.ok()) {
            store.deleteQuietly(paths.alive(id));
            store.deleteQuietly(paths.join(id));

            throw new JoinRefusedException(r.refusal, r.rejection);
        }

        TopologySnapshotCodec.Snapshot snap = snapshots.decode(r.snapshot, paths.joined(id) + " snapshot");
        List<ZkIonClusterNode> nodes = new ArrayList<>(snap.nodes.size());
        Map<UUID, byte[]> records = new HashMap<>();
        List<UUID> byRef = new ArrayList<>();

        for (NodeRecord rec : snap.nodes) {
            if (rec.byReference() && !rec.id().equals(id))
                byRef.add(rec.id());
        }

        // Read before the session is checked below: gone with the session ended, the join is asked again.
        ZkStore.Payload shared = r.sharedCommon == null ? null : readShared(r.sharedCommon);

        // In ion-2 the snapshot names each node's data znode. Only the node is read of each: their joining data, as
        // much again or more, is Ignite's business at their own joins.
        Map<UUID, ZkIonClusterNode> refNodes = new HashMap<>();

        nodeData.readNodes(byRef, paths.joined(id) + " snapshot",
            (nodeId, node) -> refNodes.put(nodeId, objects.unmarshal(node, "node " + nodeId)));

        for (int i = 0; i < snap.nodes.size(); i++) {
            NodeRecord rec = snap.nodes.get(i);
            ZkIonClusterNode n = rec.id().equals(id) ? local
                : rec.byReference() ? refNodes.get(rec.id()) : objects.unmarshal(rec.data(), "node " + rec.id());

            // The coordinator's copy of this node carries what it added: the security subject, which Ignite reads
            // from the local node's attributes as from any other's.
            if (n == local && !rec.byReference()) {
                ZkIonClusterNode admitted = objects.unmarshal(rec.data(), "node " + id);

                local.replaceAttributes(admitted.attributes());
            }

            n.order(rec.order());
            nodes.add(n);
            // Copied from the snapshot, not decoded and encoded again, which would drop fields this release does not
            // read: what this node would copy into snapshots as coordinator.
            records.put(rec.id(), snap.records.get(i));
        }

        // Admitted, and its members' data read (up to three session timeouts of silence each): the session the request
        // was made in must still be this client's. Curator carries reads over into a new session, which has no alive
        // znode, and the coordinator fails this node once it sees that. Checked before Ignite gets the cluster's data.
        long session = store.ephemeralOwner(paths.alive(id));

        if (session == 0 || session != store.sessionId())
            throw new SessionEndedInJoin();

        Topology top = Topology.of(r.state.topVer, nodes, records);
        Map<Integer, Serializable> common = objects.unmarshal(r.commonData, paths.joined(id) + " common data");

        if (shared != null)
            common = new SharedCommonReader(store, codec, objects).withShared(common, shared, r.sharedCommon);

        DiscoveryDataBag bag = new DiscoveryDataBag(id, local.isClient());

        bag.commonData(common);
        host.exchange().onExchange(bag);

        Member m = members.create(r.state, session);

        m.deliveredBeforeJoin(r.recentMessages, paths.joined(id));

        m.start(r.state.clusterId, top);
        notifier.joined(r.state.topVer, local, top.nodes());
    }
}
