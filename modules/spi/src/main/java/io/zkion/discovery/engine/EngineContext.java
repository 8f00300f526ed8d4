package io.zkion.discovery.engine;

import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.ion.CopyStats;
import io.zkion.discovery.codec.ion.TopologySnapshotCodec;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.InternalListenerHooks;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.log.LogEntryWriter;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.ignite.IgniteLogger;

/** What the parts of one node's engine share: its ZooKeeper store, codecs, the host and its settings. */
final class EngineContext {
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
    private final long joinTimeout;
    private final boolean clientReconnect;

    private volatile InternalListenerHooks hooks = InternalListenerHooks.NONE;
    private volatile Runnable afterJoinRequest = () -> { };

    EngineContext(CuratorFramework client, String root, int requestLimit, EventFormats formats, ControlCodec codec,
        ObjectCodec objects, DiscoveryHost host, ZkIonClusterNode local, long joinTimeout, boolean clientReconnect,
        DiscoveryMetrics metrics) {
        this.paths = new ZkPaths(root);
        this.store = new ZkStore(client, paths, requestLimit);
        this.codec = codec;
        this.formats = formats;
        this.objects = objects;
        this.host = host;
        this.local = local;
        this.metrics = metrics;
        this.log = host.log();
        this.entries = new LogEntryWriter(store, formats);
        this.joinTimeout = joinTimeout;
        this.clientReconnect = clientReconnect;
        this.notifier = new Notifier(host::listener, log, metrics);
        this.snapshots = new TopologySnapshotCodec(codec.ion(), new CopyStats());
    }

    ZkStore store() {
        return store;
    }

    ZkPaths paths() {
        return paths;
    }

    CuratorFramework client() {
        return store.client();
    }

    ControlCodec codec() {
        return codec;
    }

    EventFormats formats() {
        return formats;
    }

    ObjectCodec objects() {
        return objects;
    }

    DiscoveryHost host() {
        return host;
    }

    ZkIonClusterNode local() {
        return local;
    }

    DiscoveryMetrics metrics() {
        return metrics;
    }

    Notifier notifier() {
        return notifier;
    }

    TopologySnapshotCodec snapshots() {
        return snapshots;
    }

    IgniteLogger log() {
        return log;
    }

    LogEntryWriter entries() {
        return entries;
    }

    /** @return How long a join waits for the coordinator's answer; 0 waits forever. */
    long joinTimeout() {
        return joinTimeout;
    }

    /** @return Whether a client that lost the cluster rejoins it, rather than stopping. */
    boolean clientReconnect() {
        return clientReconnect;
    }

    InternalListenerHooks hooks() {
        return hooks;
    }

    void hooks(InternalListenerHooks hooks) {
        this.hooks = hooks == null ? InternalListenerHooks.NONE : hooks;
    }

    /** @return What a test runs once a join's request is written, before the joiner waits for the answer. */
    Runnable afterJoinRequest() {
        return afterJoinRequest;
    }

    @TestSeam
    void afterJoinRequest(Runnable hook) {
        this.afterJoinRequest = hook == null ? () -> { } : hook;
    }
}
