package io.zkion.discovery.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.ignite.cluster.ClusterNode;

/**
 * One topology version: the nodes in order, and each node's record as encoded when it joined (the bytes a
 * snapshot for a joining node is copied from). Immutable; every membership event makes a new one.
 */
public final class Topology {
    public static final Topology EMPTY = new Topology(0, new LinkedHashMap<>(), new HashMap<>());

    private final long topVer;
    private final LinkedHashMap<UUID, ZkIonClusterNode> nodes;
    private final Map<UUID, byte[]> records;
    private final List<ClusterNode> view;

    private Topology(long topVer, LinkedHashMap<UUID, ZkIonClusterNode> nodes, Map<UUID, byte[]> records) {
        this.topVer = topVer;
        this.nodes = nodes;
        this.records = records;
        this.view = Collections.unmodifiableList(new ArrayList<>(nodes.values()));
    }

    /** Builds a topology from nodes in ascending order. */
    public static Topology of(long topVer, List<ZkIonClusterNode> ordered, Map<UUID, byte[]> records) {
        LinkedHashMap<UUID, ZkIonClusterNode> m = new LinkedHashMap<>();

        for (ZkIonClusterNode n : ordered)
            m.put(n.id(), n);

        return new Topology(topVer, m, new HashMap<>(records));
    }

    public long topVer() {
        return topVer;
    }

    /** A node joined; its order is the new topology version, so appending keeps the order sorted. */
    public Topology withJoined(long topVer, ZkIonClusterNode node, byte[] record) {
        LinkedHashMap<UUID, ZkIonClusterNode> m = new LinkedHashMap<>(nodes);
        Map<UUID, byte[]> r = new HashMap<>(records);

        m.put(node.id(), node);
        r.put(node.id(), record);

        return new Topology(topVer, m, r);
    }

    public Topology without(long topVer, UUID id) {
        LinkedHashMap<UUID, ZkIonClusterNode> m = new LinkedHashMap<>(nodes);
        Map<UUID, byte[]> r = new HashMap<>(records);

        m.remove(id);
        r.remove(id);

        return new Topology(topVer, m, r);
    }

    public ZkIonClusterNode node(UUID id) {
        return nodes.get(id);
    }

    public boolean contains(UUID id) {
        return nodes.containsKey(id);
    }

    /** @return Every node, in ascending order: what Ignite gets as the topology snapshot. */
    public List<ClusterNode> nodes() {
        return view;
    }

    public Collection<ZkIonClusterNode> members() {
        return nodes.values();
    }

    /** @return Records in ascending order of their nodes. */
    public List<byte[]> records() {
        List<byte[]> out = new ArrayList<>(nodes.size());

        for (UUID id : nodes.keySet())
            out.add(records.get(id));

        return out;
    }

    /** @return The oldest server whose id is in {@code alive}, or null: the coordinator, for non-TCP SPIs. */
    public ZkIonClusterNode oldestServer(Set<UUID> alive) {
        for (ZkIonClusterNode n : nodes.values()) {
            if (!n.isClient() && alive.contains(n.id()))
                return n;
        }

        return null;
    }

    public int size() {
        return nodes.size();
    }

    @Override public String toString() {
        return "Topology[ver=" + topVer + ", nodes=" + nodes.keySet() + "]";
    }
}
