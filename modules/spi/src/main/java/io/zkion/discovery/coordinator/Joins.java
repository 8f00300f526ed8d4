package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.JoinedEventData;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.codec.ion.TopologySnapshotCodec;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.JoinRequest;
import io.zkion.discovery.codec.msg.JoinResult;
import io.zkion.discovery.codec.msg.JoinResult.Refusal;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.coordinator.FencedLogWriter.Committed;
import io.zkion.discovery.internal.AliveRecord;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.NodeDataReader;
import io.zkion.discovery.member.Predecoded;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * New alive nodes with a join request become NODE_JOINED, or are refused. The joins seen in one step share one
 * closing of the gate: Ignite collects each joiner's data with the log's tail standing still. They are written in
 * batches, one log entry and one multi for up to {@link #MAX_BATCH} joins: in a join storm each member then reads
 * one entry per batch, and the coordinator waits for one commit per batch (issue 20).
 */
final class Joins {
    /** The reason given with a refusal of kind {@link Refusal#UNREADABLE_REQUEST}, before what was wrong. */
    private static final String UNREADABLE_REQUEST = "The coordinator could not read the join request";

    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final ObjectCodec objects;
    private final Member member;
    private final DiscoveryHost host;
    private final IgniteLogger log;
    private final TopologySnapshotCodec snapshots;
    private final NodeDataReader nodeData;
    private final FencedLogWriter writer;
    private final Gate gate;
    private final FormatChoice format;
    private final Trimmer trimmer;
    private final MemberSessions sessions;
    private final JoinValidator validator;
    private final ZkIonClusterNode local;

    /**
     * Joins refused, with the creation zxid of the joiner's alive znode then: that znode stays until the joiner reads
     * the answer and leaves. A joiner that asks again (with a whole request after one by reference) makes a new one.
     */
    private final Map<UUID, Long> rejected = new HashMap<>();

    /** The view of alive/ (new when who is there changes) and topology of the last step that found no joiner. */
    private Map<UUID, ChildData> noJoinerIn;
    private Topology noJoinerTop;

    /** The most joins one log entry takes. */
    static final int MAX_BATCH = 64;

    /**
     * The bytes of answers, acks and events one batch's multi may carry at most: ZooKeeper takes a request up to
     * {@code jute.maxbuffer}, 1 MB by default. Each answer's snapshot names every member.
     */
    static final long BATCH_BYTES = 384 << 10;

    Joins(CoordinatorContext ctx, TopologySnapshotCodec snapshots, FencedLogWriter writer, Gate gate,
        FormatChoice format, Trimmer trimmer, MemberSessions sessions) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.codec = ctx.codec;
        this.objects = ctx.objects;
        this.member = ctx.member;
        this.host = ctx.host;
        this.log = ctx.log;
        this.snapshots = snapshots;
        this.nodeData = new NodeDataReader(ctx.store, ctx.codec);
        this.writer = writer;
        this.gate = gate;
        this.format = format;
        this.trimmer = trimmer;
        this.sessions = sessions;
        this.validator = new JoinValidator(ctx);
        this.local = ctx.local;
    }

    /** @param leaving The nodes stopping: the format chosen need not suit them. */
    void step(Map<UUID, ChildData> aliveNow, Set<UUID> leaving) throws Exception {
        Topology top = member.topology();

        if (aliveNow == noJoinerIn && top == noJoinerTop)
            return; // A joiner's request is written with its alive znode: none came.

        rejected.keySet().retainAll(aliveNow.keySet());

        Map<UUID, ZkStore.Payload> requests = new LinkedHashMap<>();
        boolean joiners = false;

        for (UUID id : aliveNow.keySet()) {
            Long refused = rejected.get(id);

            if (top.contains(id) || (refused != null && refused == AliveView.czxid(aliveNow.get(id))))
                continue;

            joiners = true;

            ZkStore.Payload p;

            try {
                p = store.readPayload(paths.join(id));
            }
            catch (ZkDataException bad) {
                reject(id, null, aliveNow, Refusal.UNREADABLE_REQUEST, UNREADABLE_REQUEST + ": " + bad.getMessage());
                continue;
            }

            if (p != null) // Else not written yet, or the joiner gave up.
                requests.put(id, p);
        }

        noJoinerIn = joiners ? null : aliveNow;
        noJoinerTop = top;

        if (requests.isEmpty())
            return;

        // One closing of the gate for all the joins seen now. It opens once every join of the pass is committed: a
        // member's message logged between two batches would reach a later joiner of the pass neither in its data
        // (collected before it) nor in the log (it comes before the joiner's join).
        writer.closeGate();
        gate.hold();

        // Joins are committed in batches, one log entry and one multi each, before this node hands them to Ignite:
        // Ignite's handling of a join here takes longer than a commit. They are applied in log order after the pass
        // (the gate keeps members' messages out of the way meanwhile), on every path: once committed, they are facts.
        List<Committed> committed = new ArrayList<>();
        List<Written> pass = new ArrayList<>();

        try {
            List<Written> batch = new ArrayList<>();
            long bytes = 0;

            for (Map.Entry<UUID, ZkStore.Payload> r : requests.entrySet()) {
                Admission a = admit(r.getKey(), r.getValue(), aliveNow, leaving);

                if (a == null)
                    continue;

                boolean sameFormat = batch.isEmpty() || a.format.equals(batch.get(0).a.format);
                Written w = sameFormat ? write(a, pass, batch) : null;

                // Each joiner's answer, ack and event are added until the next would pass the batch's bytes.
                if (w == null || batch.size() == MAX_BATCH || (!batch.isEmpty() && bytes + w.bytes > batchBytes())) {
                    commitBatch(batch, pass, committed);
                    batch = new ArrayList<>();
                    bytes = 0;
                    w = write(a, pass, batch);
                }

                batch.add(w);
                bytes += w.bytes;
            }

            commitBatch(batch, pass, committed);

            gate.release();
            writer.openGate(); // Before Ignite handles the joins here: members' messages need not wait for that.
        }
        finally {
            gate.release();

            for (Committed c : committed)
                writer.apply(c);
        }
    }

    /** @return The bytes of answers, acks and events one batch's multi may carry: half of what ZooKeeper takes. */
    private long batchBytes() {
        return Math.min(BATCH_BYTES, 2L * store.inlineLimit());
    }

    /**
     * Validates one join and runs Ignite's exchange for it, or refuses it.
     *
     * @return The join, to write; null if refused.
     */
    private Admission admit(UUID id, ZkStore.Payload p, Map<UUID, ChildData> aliveNow, Set<UUID> leaving)
        throws Exception {
        String what = paths.join(id);
        JoinRequest req;
        ZkStore.Payload dataZnode = null;
        byte[] reqNode;
        byte[] reqJoinData;
        ZkIonClusterNode node;
        Map<Integer, Serializable> joinData;

        try {
            req = codec.decodeJoinRequest(p.data, what);
            reqNode = req.node;
            reqJoinData = req.joinData;

            if (req.byReference()) { // The joiner wrote itself to its data znode.
                dataZnode = nodeData.payload(id, what);

                NodeData nd = nodeData.decode(id, dataZnode);

                reqNode = nd.node;
                reqJoinData = nd.joinData;
            }

            node = objects.unmarshal(reqNode, what + " node");
            joinData = objects.unmarshal(reqJoinData, what + " joining data");
        }
        catch (RuntimeException ex) { // Corrupt data, a missing data znode, or unreadable parts.
            reject(id, p, aliveNow, Refusal.UNREADABLE_REQUEST, UNREADABLE_REQUEST + ": " + ex.getMessage());
            return null;
        }

        String format = this.format.current(aliveNow, leaving);
        boolean[] attrsChanged = new boolean[1];
        String err = validator.validate(node, joinData, req, format, attrsChanged);

        if (err != null) {
            reject(id, p, aliveNow, Refusal.REFUSED, err);
            return null;
        }

        // In ion-2 the record and the event name the joiner's data znode, unless authentication added the security
        // subject to the node's attributes: then they carry the changed node, as in ion-1.
        boolean byRef = dataZnode != null && FormatId.ION_2.wireName().equals(format) && !attrsChanged[0];
        byte[] nodeBytes = attrsChanged[0] ? objects.marshal(node) : reqNode;

        // Ignite's order on the coordinator: joining data in, then the common data out, then the event.
        DiscoveryDataBag joiningBag = new DiscoveryDataBag(id, node.isClient());

        joiningBag.joiningNodeData(joinData);
        host.exchange().onExchange(joiningBag);

        DiscoveryDataBag collectBag = new DiscoveryDataBag(id, new HashSet<>(), node.isClient());

        collectBag.joiningNodeData(joinData);
        host.exchange().collect(collectBag);

        return new Admission(id, p, req, dataZnode, node, nodeBytes, reqJoinData, byRef, format,
            objects.marshal(new HashMap<>(collectBag.commonData())), aliveNow.get(id));
    }

    /**
     * Commits {@code batch} in one log entry. A joiner whose session ended meanwhile fails the whole multi: the others
     * are written again without it (their places and snapshots change, Ignite's exchange is not run again).
     */
    private void commitBatch(List<Written> batch, List<Written> pass, List<Committed> committed) throws Exception {
        List<Written> built = batch;

        while (!built.isEmpty()) {
            try {
                committed.add(commit(built, pass));
                pass.addAll(built);

                for (Written w : built)
                    sessions.admitted(w.a.id, w.a.alive);

                return;
            }
            catch (KeeperException.NoNodeException e) {
                // ZooKeeper names no path for a failed multi: this coordinator's own session may be the one gone.
                if (!store.exists(paths.alive(local.id())))
                    throw new FencedException("this coordinator's alive znode is gone (" + e.getMessage() + ")");

                List<Admission> todo = new ArrayList<>();
                List<Admission> left = new ArrayList<>();

                for (Written w : built)
                    (built.size() == 1 || sessionEnded(w.a) ? left : todo).add(w.a);

                if (left.isEmpty()) { // No joiner's znode is gone: each alone, as a single join is handled.
                    for (Admission a : todo)
                        commitBatch(build(Collections.singletonList(a), pass), pass, committed);

                    return;
                }

                for (Admission a : left)
                    log.info("Joining node left before its join completed [node=" + a.id + ']');

                trimmer.requestSweep();

                built = build(todo, pass);
            }
        }
    }

    /**
     * @return Whether the alive znode {@code a} was admitted with is gone: a joiner that asked again meanwhile has a
     *      new one, of a new session, which its old admission must not be committed on.
     */
    private boolean sessionEnded(Admission a) throws Exception {
        Stat now = store.client().checkExists().forPath(paths.alive(a.id));

        return now == null || now.getCzxid() != AliveView.czxid(a.alive);
    }

    /** @return {@code todo} written at the next places of the log, after the joins of this pass in {@code pass}. */
    private List<Written> build(List<Admission> todo, List<Written> pass) throws Exception {
        List<Written> out = new ArrayList<>(todo.size());

        for (Admission a : todo)
            out.add(write(a, pass, out));

        return out;
    }

    /**
     * @return {@code a} written as the next event of the entry that holds {@code batch}: its place in the entry and
     *      its topology version follow the joins before it.
     */
    private Written write(Admission a, List<Written> pass, List<Written> batch) throws Exception {
        int evtId = batch.size();
        long topVer = writer.state().topVer + evtId + 1;

        a.node.order(topVer);

        byte[] record = a.byRef ? NodeRecord.byReference(a.id, topVer, a.node.isClient()).encode()
            : new NodeRecord(a.id, topVer, a.node.isClient(), a.nodeBytes).encode();
        List<byte[]> records = new ArrayList<>();
        boolean inline = !FormatId.ION_2.wireName().equals(a.format); // The joiner may not read references.

        for (byte[] r : member.topology().records())
            records.add(inline ? inlined(r, member.topology()::node) : r);

        for (List<Written> earlier : List.of(pass, batch)) {
            for (Written w : earlier)
                records.add(inline ? inlined(w.record, n -> w.a.node) : w.record);
        }

        records.add(record);

        ClusterState next = writer.next(topVer, a.format);
        // The joiner finds its event in the log by its node id: the entry's place is known only once committed.
        JoinResult whole = JoinResult.accepted(0, next, snapshots.encode(topVer, records), a.commonData,
            member.recentlyDelivered());
        byte[] result = codec.encode(whole);
        List<CuratorOp> ops = new ArrayList<>(store.deleteOps(paths.join(a.id), a.request.manifest));
        // Setting the joiner's ack fails the whole join if its session is already gone. The ack (1) is below every
        // event id, so that the log stays until the joiner has found its join event and acked it itself.
        ops.add(store.setDataOp(paths.alive(a.id), codec.encode(AliveRecord.of(a.node, a.req.formats, 1, null))));

        if (a.dataZnode != null && !a.byRef) // Copied into the log after all: nobody reads it.
            ops.addAll(store.deleteOps(paths.node(a.id), a.dataZnode.manifest));

        DiscoveryEvent evt = DiscoveryEvent.joined(evtId, topVer, a.id,
            new JoinedEventData(record, a.byRef ? null : a.joinData).encode());

        // What the multi carries for this join: an answer in parts is only its manifest there.
        int bytes = (result.length <= store.inlineLimit() ? result.length : 256) + evt.data().length + 512;

        return new Written(a, topVer, record, whole, result, bytes, ops, evt);
    }

    /** Commits the joins of one batch in one log entry, the last one's state with it. */
    private Committed commit(List<Written> built, List<Written> pass) throws Exception {
        List<DiscoveryEvent> events = new ArrayList<>();
        List<CuratorOp> ops = new ArrayList<>();
        Map<Long, Predecoded> pre = new HashMap<>();

        List<Admission> joins = new ArrayList<>();

        for (Written w : built)
            joins.add(w.a);

        // The answers are written here, where the batch is final: those of its capable joiners share what is alike,
        // when that saves bytes and keeps the multi within what the batch was cut for.
        List<ZkIonClusterNode> servers = new ArrayList<>(member.topology().members());

        for (Written w : pass) // Committed, not applied yet: any of them may become coordinator too.
            servers.add(w.a.node);

        SharedCommon shared = SharedCommon.planOrNone(joins, servers, objects, codec, paths, log);
        Map<UUID, byte[]> whole = new HashMap<>();
        Map<UUID, byte[]> answers = new HashMap<>();

        for (Written w : built) {
            byte[] own = shared == null ? null : shared.own(w.a.id);

            whole.put(w.a.id, w.result);
            answers.put(w.a.id, own == null ? w.result : codec.encode(w.answer.sharing(own, shared.path)));
        }

        if (shared != null && !shared.pays(whole, answers, store.inlineLimit())) {
            shared = null;
            answers = whole;
        }

        if (shared != null)
            ops.addAll(store.create(shared.path, shared.payload, CreateMode.PERSISTENT).ops);

        for (Written w : built) {
            ops.addAll(store.create(paths.joined(w.a.id), answers.get(w.a.id), CreateMode.PERSISTENT).ops);
            events.add(w.event);
            ops.addAll(w.ops);
            pre.put(w.event.eventId(), new Predecoded(null, false, true, w.a.byRef ? w.a.node : null));
        }

        Written last = built.get(built.size() - 1);

        return writer.commit(events, ops, writer.next(last.topVer, last.a.format), pre);
    }

    /** A join written at one place of the log, and what later joins of the pass take into their snapshots. */
    private static final class Written {
        final Admission a;
        final long topVer;
        final byte[] record;
        /** The answer, and its bytes whole: written at the commit, where its batch may share part of it. */
        final JoinResult answer;
        final byte[] result;
        /** About what this join adds to the multi. */
        final int bytes;
        /** The join's writes but its answer. */
        final List<CuratorOp> ops;
        final DiscoveryEvent event;

        Written(Admission a, long topVer, byte[] record, JoinResult answer, byte[] result, int bytes,
            List<CuratorOp> ops, DiscoveryEvent event) {
            this.a = a;
            this.topVer = topVer;
            this.record = record;
            this.answer = answer;
            this.result = result;
            this.bytes = bytes;
            this.ops = ops;
            this.event = event;
        }
    }

    /** @return {@code record} with the node's bytes in it, for a joiner that reads ion-1 only. */
    private byte[] inlined(byte[] record, Function<UUID, ZkIonClusterNode> nodes) {
        NodeRecord r = NodeRecord.decode(record, "the record of a node");

        return r.byReference()
            ? new NodeRecord(r.id(), r.order(), r.client(), objects.marshal(nodes.apply(r.id()))).encode()
            : record;
    }

    /**
     * Answers a join with a refusal. {@code p} is null when the request's parts could not be read: then the request
     * is removed apart from the commit, like the data znode, which may be corrupt or have lost parts too. A joiner
     * must never wait for an answer that does not come.
     */
    private void reject(UUID id, ZkStore.Payload p, Map<UUID, ChildData> aliveNow, Refusal kind, String reason)
        throws Exception {
        log.warning("Refusing node " + id + ": " + reason);

        List<CuratorOp> ops = new ArrayList<>(p == null ? Collections.emptyList() : store.deleteOps(paths.join(id), p.manifest));
        ZkStore.Prepared answer = store.create(paths.joined(id), codec.encode(JoinResult.rejected(kind, reason)), CreateMode.PERSISTENT);

        ops.addAll(answer.ops);

        try {
            writer.commitFenced(ops);
        }
        catch (KeeperException.NodeExistsException answered) {
            if (p != null)
                throw answered;
            // An unreadable request answered already.
        }

        rejected.put(id, AliveView.czxid(aliveNow.get(id)));

        if (p == null)
            store.deleteQuietly(paths.join(id));

        store.deleteQuietly(paths.node(id));
    }
}
