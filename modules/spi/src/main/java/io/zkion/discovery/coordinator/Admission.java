package io.zkion.discovery.coordinator;

import java.util.UUID;
import io.zkion.discovery.codec.msg.JoinRequest;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.recipes.cache.ChildData;

/**
 * A join the coordinator validated and exchanged with Ignite, not yet written: what it needs to be written at any
 * place in the log. A batch that fails because another joiner left is written again without that one, and Ignite's
 * exchange must not run twice for the same join.
 */
final class Admission {
    final UUID id;
    final ZkStore.Payload request;
    final JoinRequest req;
    /** The joiner's data znode, or null when the request carried the node itself. */
    final ZkStore.Payload dataZnode;
    final ZkIonClusterNode node;
    /** The node as the cluster gets it: the joiner's bytes, or the node again if authentication changed it. */
    final byte[] nodeBytes;
    final byte[] joinData;
    /** Whether the record and event name the data znode instead of carrying the node. */
    final boolean byRef;
    final String format;
    /** Ignite's common data collected for this joiner, marshalled. */
    final byte[] commonData;
    final ChildData alive;

    Admission(UUID id, ZkStore.Payload request, JoinRequest req, ZkStore.Payload dataZnode, ZkIonClusterNode node,
        byte[] nodeBytes, byte[] joinData, boolean byRef, String format, byte[] commonData, ChildData alive) {
        this.id = id;
        this.request = request;
        this.req = req;
        this.dataZnode = dataZnode;
        this.node = node;
        this.nodeBytes = nodeBytes;
        this.joinData = joinData;
        this.byRef = byRef;
        this.format = format;
        this.commonData = commonData;
        this.alive = alive;
    }
}
