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

/**
 * New alive nodes with a join request become NODE_JOINED, or are refused. The joins seen in one step share one
 * closing of the gate: Ignite collects each joiner's data with the log's tail standing still.
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

    /**
     * Joins refused, with the creation zxid of the joiner's alive znode then: that znode stays until the joiner reads
     * the answer and leaves. A joiner that asks again (with a whole request after one by reference) makes a new one.
     */
    private final Map<UUID, Long> rejected = new HashMap<>();

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
    }

    /** @param leaving The nodes stopping: the format chosen need not suit them. */
    void step(Map<UUID, ChildData> aliveNow, Set<UUID> leaving) throws Exception {
        rejected.keySet().retainAll(aliveNow.keySet());

        Map<UUID, ZkStore.Payload> requests = new LinkedHashMap<>();

        for (UUID id : aliveNow.keySet()) {
            Long refused = rejected.get(id);

            if (member.topology().contains(id) || (refused != null && refused == AliveView.czxid(aliveNow.get(id))))
                continue;

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

        if (requests.isEmpty())
            return;

        // One closing of the gate for all the joins seen now; the last join's commit opens it.
        writer.closeGate();
        gate.hold();

        // Each join is committed, and its joiner can go on, before this node hands the previous ones to Ignite:
        // Ignite's handling of a join here takes longer than a commit. They are applied in log order after the pass
        // (the gate keeps members' messages out of the way meanwhile), on every path: once committed, they are facts.
        List<Committed> committed = new ArrayList<>();

        try {
            int left = requests.size();

            for (Map.Entry<UUID, ZkStore.Payload> r : requests.entrySet()) {
                if (--left == 0)
                    gate.release(); // Its commit opens the gate.

                Committed c = join(r.getKey(), r.getValue(), aliveNow, leaving, committed);

                if (c != null)
                    committed.add(c);
            }
        }
        finally {
            gate.release();

            for (Committed c : committed)
                writer.apply(c);
        }

        writer.openGate(); // If the last join did not commit (its joiner left).
    }

    /**
     * Validates one join and commits it, or refuses it.
     *
     * @param earlier Joins of this pass committed but not applied yet: their nodes are in the joiner's snapshot.
     * @return The committed join, to apply; null if refused or the joiner left.
     */
    private Committed join(UUID id, ZkStore.Payload p, Map<UUID, ChildData> aliveNow, Set<UUID> leaving,
        List<Committed> earlier) throws Exception {
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

        long topVer = writer.state().topVer + 1;
        long evtId = 0;

        node.order(topVer);

        // In ion-2 the record and the event name the joiner's data znode, unless authentication added the security
        // subject to the node's attributes: then they carry the changed node, as in ion-1.
        boolean byRef = dataZnode != null && FormatId.ION_2.wireName().equals(format) && !attrsChanged[0];
        byte[] nodeBytes = attrsChanged[0] ? objects.marshal(node) : reqNode;
        byte[] record = byRef ? NodeRecord.byReference(id, topVer, node.isClient()).encode()
            : new NodeRecord(id, topVer, node.isClient(), nodeBytes).encode();

        // Ignite's order on the coordinator: joining data in, then the common data out, then the event.
        DiscoveryDataBag joiningBag = new DiscoveryDataBag(id, node.isClient());

        joiningBag.joiningNodeData(joinData);
        host.exchange().onExchange(joiningBag);

        DiscoveryDataBag collectBag = new DiscoveryDataBag(id, new HashSet<>(), node.isClient());

        collectBag.joiningNodeData(joinData);
        host.exchange().collect(collectBag);

        List<byte[]> records = new ArrayList<>();
        boolean inline = !FormatId.ION_2.wireName().equals(format); // The joiner may not read references.

        for (byte[] r : member.topology().records())
            records.add(inline ? inlined(r, member.topology()::node) : r);

        for (Committed c : earlier)
            records.add(inline ? inlined(c.joinedRecord, n -> c.joinedNode) : c.joinedRecord);

        records.add(record);

        ClusterState next = writer.next(topVer, format);
        // The joiner finds its event in the log by its node id: the entry's place is known only once committed.
        byte[] result = codec.encode(JoinResult.accepted(0, next, snapshots.encode(topVer, records),
            objects.marshal(new HashMap<>(collectBag.commonData())), member.recentlyDelivered()));

        ZkStore.Prepared answer = store.create(paths.joined(id), result, CreateMode.PERSISTENT);
        List<CuratorOp> ops = new ArrayList<>(answer.ops);

        ops.addAll(store.deleteOps(paths.join(id), p.manifest));
        // Setting the joiner's ack fails the whole join if its session is already gone. The ack (1) is below every
        // event id, so that the log stays until the joiner has found its join event and acked it itself.
        ops.add(store.setDataOp(paths.alive(id), codec.encode(AliveRecord.of(node, req.formats, 1, null))));

        if (dataZnode != null && !byRef) // Copied into the log after all: nobody reads it.
            ops.addAll(store.deleteOps(paths.node(id), dataZnode.manifest));

        DiscoveryEvent evt = DiscoveryEvent.joined(evtId, topVer, id,
            new JoinedEventData(record, byRef ? null : reqJoinData).encode());
        Map<Long, Predecoded> pre = new HashMap<>();

        pre.put(evtId, new Predecoded(null, false, true, byRef ? node : null));

        try {
            Committed c = writer.commit(Collections.singletonList(evt), ops, next, pre, answer).withRecord(record, node);

            sessions.admitted(id, aliveNow.get(id));

            return c;
        }
        catch (KeeperException.NoNodeException gone) {
            log.info("Joining node left before its join completed [node=" + id + ']');
            trimmer.requestSweep();

            return null;
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
