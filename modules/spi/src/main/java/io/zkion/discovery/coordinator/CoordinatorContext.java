package io.zkion.discovery.coordinator;

import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;

/** The collaborators most of the coordinator's parts share, handed to each in one piece. */
final class CoordinatorContext {
    final ZkStore store;
    final ZkPaths paths;
    final ControlCodec codec;
    final EventFormats formats;
    final ObjectCodec objects;
    final Member member;
    final DiscoveryHost host;
    final ZkIonClusterNode local;
    final DiscoveryMetrics metrics;
    final IgniteLogger log;

    /** Schedules another step. */
    final Runnable trigger;

    CoordinatorContext(ZkStore store, ControlCodec codec, EventFormats formats, ObjectCodec objects, Member member,
        DiscoveryHost host, ZkIonClusterNode local, DiscoveryMetrics metrics, Runnable trigger) {
        this.store = store;
        this.paths = store.paths();
        this.codec = codec;
        this.formats = formats;
        this.objects = objects;
        this.member = member;
        this.host = host;
        this.local = local;
        this.metrics = metrics;
        this.log = host.log();
        this.trigger = trigger;
    }
}
