package io.zkion.discovery.member;

import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * What a coordinator already did with an event it appends, so that applying its own entry neither unmarshals
 * again nor hands Ignite a second copy.
 */
public final class Predecoded {
    public final DiscoverySpiCustomMessage msg;
    public final boolean delivered;
    public final boolean exchanged;

    /** For a join: the node, as the coordinator validated it; null to read it from the entry. */
    public final ZkIonClusterNode node;

    public Predecoded(DiscoverySpiCustomMessage msg, boolean delivered, boolean exchanged) {
        this(msg, delivered, exchanged, null);
    }

    public Predecoded(DiscoverySpiCustomMessage msg, boolean delivered, boolean exchanged, ZkIonClusterNode node) {
        this.msg = msg;
        this.delivered = delivered;
        this.exchanged = exchanged;
        this.node = node;
    }
}
