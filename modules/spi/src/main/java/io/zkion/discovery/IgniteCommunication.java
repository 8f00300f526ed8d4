package io.zkion.discovery;

import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.internal.Communication;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.processors.cache.DynamicCacheDescriptor;
import org.apache.ignite.internal.processors.cache.GridCacheContext;
import org.apache.ignite.internal.processors.cache.IgniteInternalCache;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.communication.CommunicationSpi;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/** A communication-failure round's view of one Ignite node: its communication SPI, its resolver, its caches. */
final class IgniteCommunication implements Communication {
    private final IgniteEx ignite;

    IgniteCommunication(IgniteEx ignite) {
        this.ignite = ignite;
    }

    @Override public IgniteFuture<BitSet> checkConnection(List<ClusterNode> nodes) {
        CommunicationSpi<?> spi = ignite.configuration().getCommunicationSpi();

        return spi instanceof TcpCommunicationSpi ? ((TcpCommunicationSpi)spi).checkConnection(nodes) : null;
    }

    @Override public CommunicationFailureResolver resolver() {
        return ignite.configuration().getCommunicationFailureResolver();
    }

    @Override public Map<String, CacheConfiguration<?, ?>> startedCaches() {
        Map<String, CacheConfiguration<?, ?>> out = new HashMap<>();

        for (Map.Entry<String, DynamicCacheDescriptor> e : ignite.context().cache().cacheDescriptors().entrySet())
            out.put(e.getKey(), e.getValue().cacheConfiguration());

        return out;
    }

    @Override public List<List<ClusterNode>> cacheAffinity(String cache) {
        GridCacheContext<?, ?> cctx = context(cache);

        return cctx == null ? Collections.emptyList()
            : cctx.affinity().assignments(cctx.affinity().affinityTopologyVersion());
    }

    @Override public List<List<ClusterNode>> cachePartitionOwners(String cache) {
        GridCacheContext<?, ?> cctx = context(cache);

        return cctx == null ? Collections.emptyList() : cctx.topology().allOwners();
    }

    /** @return The cache's context on this node; null if it is not started here. */
    private GridCacheContext<?, ?> context(String cache) {
        IgniteInternalCache<?, ?> c = ignite.context().cache().internalCache(cache);

        return c == null ? null : c.context();
    }
}
