package io.zkion.discovery.bench.sidebyside;

import org.apache.ignite.internal.managers.discovery.DiscoCache;
import org.apache.ignite.internal.managers.discovery.DiscoveryCustomMessage;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.apache.ignite.internal.processors.affinity.AffinityTopologyVersion;
import org.apache.ignite.lang.IgniteUuid;

/** A no-op custom discovery message: what the round-trip and allocation scenarios send. */
final class Ping implements DiscoveryCustomMessage {
    private static final long serialVersionUID = 1L;

    private final IgniteUuid id = IgniteUuid.randomUuid();
    final int seq;

    Ping(int seq) {
        this.seq = seq;
    }

    @Override public IgniteUuid id() {
        return id;
    }

    @Override public DiscoveryCustomMessage ackMessage() {
        return null;
    }

    @Override public boolean isMutable() {
        return false;
    }

    @Override public DiscoCache createDiscoCache(GridDiscoveryManager mgr, AffinityTopologyVersion topVer, DiscoCache c) {
        throw new UnsupportedOperationException();
    }
}
