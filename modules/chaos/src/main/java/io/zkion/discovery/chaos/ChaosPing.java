package io.zkion.discovery.chaos;

import org.apache.ignite.internal.managers.discovery.DiscoCache;
import org.apache.ignite.internal.managers.discovery.DiscoveryCustomMessage;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.apache.ignite.internal.processors.affinity.AffinityTopologyVersion;
import org.apache.ignite.lang.IgniteUuid;

/**
 * A custom discovery message the run counts: its tag is unique in the run, and its ack carries the same tag. A mutable
 * one goes through the coordinator's queue, and its listener there runs before the message is logged for the rest.
 */
public class ChaosPing implements DiscoveryCustomMessage {
    private static final long serialVersionUID = 1L;

    private final IgniteUuid id = IgniteUuid.randomUuid();

    /** Unique in the run: sender's name, incarnation and a counter. */
    public final String tag;

    /** Whether this is the ack of the ping of the same tag. */
    public final boolean ack;

    private final boolean mutable;

    public ChaosPing(String tag, boolean ack, boolean mutable) {
        this.tag = tag;
        this.ack = ack;
        this.mutable = mutable;
    }

    @Override public IgniteUuid id() {
        return id;
    }

    @Override public DiscoveryCustomMessage ackMessage() {
        return ack ? null : new ChaosPing(tag, true, false);
    }

    @Override public boolean isMutable() {
        return mutable;
    }

    @Override public DiscoCache createDiscoCache(GridDiscoveryManager mgr, AffinityTopologyVersion topVer,
        DiscoCache discoCache) {
        throw new UnsupportedOperationException();
    }
}
