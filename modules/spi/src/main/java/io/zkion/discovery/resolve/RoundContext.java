package io.zkion.discovery.resolve;

import java.util.function.Supplier;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.Communication;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;

/** What the parts of a round share on one node. */
final class RoundContext {
    final ZkStore store;
    final ObjectCodec objects;
    final ControlCodec codec;
    final ZkIonClusterNode local;
    final IgniteLogger log;
    final DiscoveryMetrics metrics;
    final Communication comm;
    final Supplier<Topology> topology;

    /** The session timeout ZooKeeper granted, in ms. */
    final Supplier<Long> sessionTimeout;

    RoundContext(ZkStore store, ObjectCodec objects, ControlCodec codec, ZkIonClusterNode local, IgniteLogger log,
        DiscoveryMetrics metrics, Communication comm, Supplier<Topology> topology, Supplier<Long> sessionTimeout) {
        this.store = store;
        this.objects = objects;
        this.codec = codec;
        this.local = local;
        this.log = log;
        this.metrics = metrics;
        this.comm = comm;
        this.topology = topology;
        this.sessionTimeout = sessionTimeout;
    }
}
