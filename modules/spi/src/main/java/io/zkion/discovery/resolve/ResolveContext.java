package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.internal.Communication;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.CommunicationFailureContext;

/** What Ignite's resolver sees on the coordinator: the topology, the round's matrix, the caches; it records kills. */
final class ResolveContext implements CommunicationFailureContext {
    private final List<ClusterNode> topology;
    private final Connectivity connectivity;
    private final Communication comm;
    private final Set<UUID> killed = new LinkedHashSet<>();

    ResolveContext(List<ClusterNode> topology, Connectivity connectivity, Communication comm) {
        this.topology = Collections.unmodifiableList(new ArrayList<>(topology));
        this.connectivity = connectivity;
        this.comm = comm;
    }

    @Override public List<ClusterNode> topologySnapshot() {
        return topology;
    }

    @Override public boolean connectionAvailable(ClusterNode node1, ClusterNode node2) {
        return connectivity.available(node1, node2);
    }

    @Override public Map<String, CacheConfiguration<?, ?>> startedCaches() {
        return comm.startedCaches();
    }

    @Override public List<List<ClusterNode>> cacheAffinity(String cacheName) {
        return comm.cacheAffinity(cacheName);
    }

    @Override public List<List<ClusterNode>> cachePartitionOwners(String cacheName) {
        return comm.cachePartitionOwners(cacheName);
    }

    /** Records {@code node} to remove; a node no longer in the topology is ignored. */
    @Override public void killNode(ClusterNode node) {
        for (ClusterNode n : topology) {
            if (n.id().equals(node.id()))
                killed.add(n.id());
        }
    }

    /** @return The nodes the resolver removed, in the order it named them. */
    List<UUID> killed() {
        return new ArrayList<>(killed);
    }
}
