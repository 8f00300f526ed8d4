package io.zkion.discovery.engine;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.JoinedEventData;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.internal.AliveRecord;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.NodeAuthentication;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.log.LogEntryWriter;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.Predecoded;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.plugin.security.SecurityCredentials;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Founds a cluster where ZooKeeper holds none alive: one {@code multi} writes the state, the first log entry (this
 * node's join) and this node's ack. Of nodes starting together, the one whose multi lands first founds; the others
 * join it.
 */
final class Founder {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final EventFormats formats;
    private final ObjectCodec objects;
    private final ZkIonClusterNode local;
    private final DiscoveryHost host;
    private final IgniteLogger log;

    Founder(ZkStore store, ControlCodec codec, EventFormats formats, ObjectCodec objects, ZkIonClusterNode local,
        DiscoveryHost host, IgniteLogger log) {
        this.store = store;
        this.paths = store.paths();
        this.codec = codec;
        this.formats = formats;
        this.objects = objects;
        this.local = local;
        this.host = host;
        this.log = log;
    }

    /**
     * Founds the cluster when ZooKeeper holds none alive: no state, or a state no live member backs (the
     * whole cluster stopped or died). Servers only; a client waits for one.
     *
     * @return Whether this node founded the cluster; false if there is a live one or another node founded it first.
     */
    boolean tryFound(Joiner.MemberFactory members) throws Exception {
        if (local.isClient())
            return false;

        Stat stat = new Stat();
        byte[] current = store.read(paths.state, stat);

        if (current != null && clusterAlive(codec.decodeState(current, paths.state)))
            return false;

        // What a dead cluster left; removed only once this node has won the founding commit.
        List<String> leftovers = current == null ? Collections.emptyList() : deadClusterLeftovers();

        UUID id = local.id();
        String format = formats.preferred().wireName();
        ClusterState fresh = new ClusterState(UUID.randomUUID(), System.currentTimeMillis(), 1, 0, format, id);
        // In the dead cluster's log epoch: entries it left sort before this cluster's, whose names go on from its
        // counter, until they are removed.
        ClusterState state = current == null ? fresh : fresh.inEpochOf(codec.decodeState(current, paths.state));

        local.order(1);

        // The founder admits itself, as a coordinator admits a joiner: with a security plugin, its subject goes into
        // its attributes before anyone (Ignite's discovery notifier first) reads them.
        String authErr = NodeAuthentication.authenticate(host, objects, local, (SecurityCredentials)local.credentials());

        if (authErr != null)
            throw new IgniteSpiException("The first node of the cluster refused itself: " + authErr);

        // In ion-2 the founder's data znode serves later joiners' snapshots as any member's does; not when
        // authentication added the subject to the node, which the data znode written with the request lacks: then the
        // record carries the node, as a coordinator's record of an authenticated joiner does.
        byte[] ownData = store.rawData(paths.node(id));
        boolean byRef = FormatId.ION_2.wireName().equals(format) && host.authenticator() == null;
        byte[] noJoinData = objects.marshal(new HashMap<Integer, Serializable>()); // The founder joins no one.
        ZkStore.Prepared dataZnode = byRef && ownData == null ? store.create(paths.node(id),
            codec.encode(new NodeData(objects.marshal(local), noJoinData)), CreateMode.PERSISTENT) : null;
        byte[] record = byRef ? NodeRecord.byReference(id, 1, false).encode()
            : new NodeRecord(id, 1, false, objects.marshal(local)).encode();
        LogEntryWriter.Draft logEntry = new LogEntryWriter(store, formats).logEntry(state.clusterId, 1,
            Collections.singletonList(DiscoveryEvent.joined(0, 1, id, new JoinedEventData(record, noJoinData).encode())),
            formats.preferred(), state.logEpoch);
        List<CuratorOp> ops = new ArrayList<>(logEntry.prepared.ops);
        byte[] stateBytes = codec.encode(state);

        ops.add(current == null
            ? store.client().transactionOp().create().forPath(paths.state, stateBytes)
            : store.setDataOp(paths.state, stateBytes, stat.getVersion()));
        ops.addAll(store.deleteOps(paths.join(id), store.rawData(paths.join(id))));

        if (ownData != null && !byRef) // The founder's record carries the node itself.
            ops.addAll(store.deleteOps(paths.node(id), ownData));

        if (dataZnode != null)
            ops.addAll(dataZnode.ops);
        ops.add(store.setDataOp(paths.alive(id),
            codec.encode(AliveRecord.of(local, formats.wireNames(), 1, BuildInfo.release()))));
        // A dead cluster may have left the gate closed; members write in the new cluster's format.
        ops.add(store.setDataOp(paths.gate, codec.encode(new GateState(true, format, state.logEpoch))));

        String created;

        try {
            created = store.commit(ops).get(0).getResultPath();
        }
        catch (KeeperException.NodeExistsException | KeeperException.BadVersionException raced) {
            // Someone else founded first, or this very multi did: Curator re-sends a request whose reply was lost,
            // and the replay fails on what the first one wrote. The cluster id, new for every attempt, tells which.
            created = ownFoundingEntry(state.clusterId);

            if (created == null) {
                local.clearOrder(); // Not ours after all: keep waiting for the coordinator.

                return false;
            }

            log.info("The founding commit's reply was lost, and it had landed: this node founded the cluster "
                + "[id=" + state.clusterId + ", entry=" + created + ']');
        }

        if (!leftovers.isEmpty()) {
            log.info("No live member backed the cluster state under " + paths.root + ": started a new cluster there, "
                + "removing " + leftovers.size() + " znodes the old one left");

            for (String path : leftovers)
                store.deleteQuietly(path);
        }

        Member m = members.create(state, store.sessionId());
        Map<Long, Predecoded> pre = new HashMap<>();

        pre.put(0L, new Predecoded(null, false, true));
        m.applyOwn(ZkPaths.sequence(created), created, logEntry.prepared.manifest, logEntry.batch, pre);

        log.info("Started a new cluster [id=" + state.clusterId + ", root=" + paths.root + ", format=" + format + ']');

        return true;
    }

    /** @return Whether any alive node has joined (its ack is past zero): then the cluster in ZooKeeper is live. */
    private boolean clusterAlive(ClusterState state) throws Exception {
        // The usual case in one call: the coordinator named in the state is alive.
        if (store.exists(paths.alive(state.coordinator)))
            return true;

        for (String name : store.children(paths.alive)) {
            byte[] data = store.rawData(paths.alive + "/" + name);

            if (data != null && codec.decodeAlive(data, paths.alive + "/" + name).ack > 0)
                return true;
        }

        return false;
    }

    /** @return The znodes a dead cluster left, listed before the founding commit, so none of the new cluster's. */
    private List<String> deadClusterLeftovers() throws Exception {
        List<String> out = new ArrayList<>();

        for (String dir : paths.clusterOwned()) {
            for (String name : store.children(dir)) {
                if (!dir.equals(paths.joined) || !name.equals(local.id().toString()))
                    out.add(dir + "/" + name);
            }
        }

        // Not the data of nodes joining now, this one among them: they belong to the new cluster.
        for (String name : store.leftovers().dataZnodesNotJoining())
            out.add(paths.nodes + "/" + name);

        return out;
    }

    /**
     * @return The log entry of the cluster {@code clusterId} if the state names it, so that the founding multi that
     *      made it landed; null if another node's state is there.
     */
    private String ownFoundingEntry(UUID clusterId) throws Exception {
        byte[] now = store.read(paths.state);

        if (now == null || !codec.decodeState(now, paths.state).clusterId.equals(clusterId))
            return null;

        List<String> names = new ArrayList<>(store.children(paths.log));

        names.sort(Comparator.comparingLong(ZkPaths::sequence));

        // Nobody else writes to a cluster before its founder coordinates: its one entry is the newest of its id.
        for (int i = names.size() - 1; i >= 0; i--) {
            String path = paths.log + "/" + names.get(i);
            ZkStore.Payload p = store.readPayload(path);

            if (p != null && formats.decode(p.data, path).clusterId().equals(clusterId))
                return path;
        }

        throw new IgniteSpiException("The cluster state under " + paths.state + " names cluster " + clusterId
            + ", founded by this node, but " + paths.log + " holds no entry of it");
    }
}
