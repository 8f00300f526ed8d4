package io.zkion.discovery.bench.sidebyside;

import org.apache.ignite.internal.managers.discovery.DiscoCache;
import org.apache.ignite.internal.managers.discovery.DiscoveryCustomMessage;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.apache.ignite.internal.processors.affinity.AffinityTopologyVersion;
import org.apache.ignite.lang.IgniteUuid;

/**
 * A no-op custom discovery message: what the round-trip and allocation scenarios send. A mutable one goes through the
 * coordinator, as Ignite's metastorage messages do (about ten a starting node sends): what {@link JoinBytes} weighs.
 */
final class Ping implements DiscoveryCustomMessage {
    private static final long serialVersionUID = 1L;

    private final IgniteUuid id = IgniteUuid.randomUuid();
    final int seq;
    private final boolean mutable;

    Ping(int seq) {
        this(seq, false);
    }

    Ping(int seq, boolean mutable) {
        this.seq = seq;
        this.mutable = mutable;
    }

    @Override public IgniteUuid id() {
        return id;
    }

    @Override public DiscoveryCustomMessage ackMessage() {
        return null;
    }

    @Override public boolean isMutable() {
        return mutable;
    }

    @Override public DiscoCache createDiscoCache(GridDiscoveryManager mgr, AffinityTopologyVersion topVer, DiscoCache c) {
        throw new UnsupportedOperationException();
    }
}
