package io.zkion.discovery.internal;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.apache.ignite.lang.IgniteFuture;

/** What a communication-failure round needs of Ignite: its communication's check, the resolver, the caches. */
public interface Communication {
    /**
     * @return Which of {@code nodes} this node reaches through Ignite's communication (bit i for node i); null if the
     *      communication SPI cannot check connections.
     */
    IgniteFuture<BitSet> checkConnection(List<ClusterNode> nodes);

    /** @return The resolver Ignite configured (its default one if none was set); null if none. */
    CommunicationFailureResolver resolver();

    Map<String, CacheConfiguration<?, ?>> startedCaches();

    /** @return Per partition, the nodes the cache's affinity assigns it to, primary first; empty if unknown here. */
    List<List<ClusterNode>> cacheAffinity(String cache);

    /** @return Per partition, the nodes that own it now; empty if unknown here. */
    List<List<ClusterNode>> cachePartitionOwners(String cache);
}
