package io.zkion.discovery.internal;

import java.util.Collection;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * A custom message of ZkIon's own in the event log (a communication-failure round's start and end): every node
 * applies it at the same place in the log, and none hands it to Ignite. A node of a release that lacks its class skips
 * it, as any message it cannot read.
 */
public interface InternalMessage extends DiscoverySpiCustomMessage {
    /** Takes the internal messages the log delivers, on the discovery thread, in the log's order. */
    interface Sink {
        Sink NONE = (topVer, snapshot, msg) -> { };

        /** @param snapshot The topology at this message's place in the log. */
        void onLogged(long topVer, Collection<ClusterNode> snapshot, InternalMessage msg);

        /** A node left the topology or failed out of it. */
        default void onDeparture() {
            // Nothing by default.
        }
    }
}
