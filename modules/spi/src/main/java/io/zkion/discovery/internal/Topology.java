package io.zkion.discovery.internal;

import java.util.AbstractList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.cluster.ClusterNode;

/**
 * One topology version: the nodes in order, and each node's record as encoded when it joined (the bytes a
 * snapshot for a joining node is copied from). Immutable; every membership event makes a new one.
 * <p>
 * A join to the newest version appends to arrays that version shares with its predecessors ({@link Lineage}), so a
 * join costs the same at 1,000 nodes as at 10: copying the whole topology per join made a join storm cost each
 * member O(N²) (issue 20). Each version sees only the prefix it was made with, and that prefix never changes.
 * A departure, or a join to an older version, copies.
 */
public final class Topology {
    public static final Topology EMPTY = new Topology(0, new Lineage(0), 0);

    private final long topVer;
    private final Lineage lineage;
    /** The lineage's arrays as this version was made: its prefix of them is immutable. */
    private final ZkIonClusterNode[] nodes;
    private final byte[][] records;
    private final int size;
    private final Prefix<ZkIonClusterNode> members;
    private final List<ClusterNode> view;

    private Topology(long topVer, Lineage lineage, int size) {
        this.topVer = topVer;
        this.lineage = lineage;
        this.nodes = lineage.nodes;
        this.records = lineage.records;
        this.size = size;
        this.members = new Prefix<>(nodes, size);
        this.view = Collections.unmodifiableList(members); // Typed as Ignite's; a prefix is read-only already.
    }

    /** Builds a topology from nodes in ascending order. */
    public static Topology of(long topVer, List<ZkIonClusterNode> ordered, Map<UUID, byte[]> records) {
        Lineage l = new Lineage(ordered.size());

        for (ZkIonClusterNode n : ordered)
            l.put(n, records.get(n.id()));

        return new Topology(topVer, l, l.size);
    }

    public long topVer() {
        return topVer;
    }

    /** A node joined; its order is the new topology version, so appending keeps the order sorted. */
    public Topology withJoined(long topVer, ZkIonClusterNode node, byte[] record) {
        if (size > 0) {
            synchronized (lineage) {
                if (lineage.size == size && !lineage.index.containsKey(node.id())) {
                    lineage.append(node, record);

                    return new Topology(topVer, lineage, size + 1);
                }
            }
        }

        Lineage l = copy(null);

        l.put(node, record);

        return new Topology(topVer, l, l.size);
    }

    public Topology without(long topVer, UUID id) {
        Lineage l = copy(id);

        return new Topology(topVer, l, l.size);
    }

    /** @return A new lineage with this version's nodes, less {@code skip}'s. */
    private Lineage copy(UUID skip) {
        Lineage l = new Lineage(size + 1);

        for (int i = 0; i < size; i++) {
            if (!nodes[i].id().equals(skip))
                l.put(nodes[i], records[i]);
        }

        return l;
    }

    public ZkIonClusterNode node(UUID id) {
        Integer i = lineage.index.get(id);

        // The lineage may have grown past this version: a node appended later is not in it.
        return i != null && i < size ? nodes[i] : null;
    }

    public boolean contains(UUID id) {
        return node(id) != null;
    }

    /** @return Every node, in ascending order: what Ignite gets as the topology snapshot. */
    public List<ClusterNode> nodes() {
        return view;
    }

    public Collection<ZkIonClusterNode> members() {
        return members;
    }

    /** @return Records in ascending order of their nodes. */
    public List<byte[]> records() {
        return new Prefix<>(records, size);
    }

    /** @return The oldest server whose id is in {@code alive}, or null: the coordinator, for non-TCP SPIs. */
    public ZkIonClusterNode oldestServer(Set<UUID> alive) {
        for (int i = 0; i < size; i++) {
            if (!nodes[i].isClient() && alive.contains(nodes[i].id()))
                return nodes[i];
        }

        return null;
    }

    public int size() {
        return size;
    }

    @Override public String toString() {
        StringBuilder b = new StringBuilder("Topology[ver=").append(topVer).append(", nodes=[");

        for (int i = 0; i < size; i++)
            b.append(i > 0 ? ", " : "").append(nodes[i].id());

        return b.append("]]").toString();
    }

    /**
     * The nodes and records of versions that joins alone separate. Appends happen under its lock; readers of any
     * version read only below that version's size, written before the version was made. The index is concurrent
     * because Ignite's threads look nodes up while the discovery thread appends.
     */
    private static final class Lineage {
        private ZkIonClusterNode[] nodes;
        private byte[][] records;
        private final Map<UUID, Integer> index = new ConcurrentHashMap<>();
        private int size;

        Lineage(int capacity) {
            nodes = new ZkIonClusterNode[Math.max(capacity, 4)];
            records = new byte[nodes.length][];
        }

        /** Adds a node while the lineage is built, or replaces the one with its id in place. */
        void put(ZkIonClusterNode n, byte[] record) {
            Integer at = index.get(n.id());

            if (at == null)
                append(n, record);
            else {
                nodes[at] = n;
                records[at] = record;
            }
        }

        void append(ZkIonClusterNode n, byte[] record) {
            if (size == nodes.length) {
                // New arrays: the versions made so far keep the old ones, whose prefixes stay as they were.
                nodes = java.util.Arrays.copyOf(nodes, size * 2);
                records = java.util.Arrays.copyOf(records, size * 2);
            }

            nodes[size] = n;
            records[size] = record;
            index.put(n.id(), size);
            size++;
        }
    }

    /** A read-only view of an array's first {@code size} elements (AbstractList refuses every change). */
    private static final class Prefix<T> extends AbstractList<T> implements RandomAccess {
        private final Object[] arr;
        private final int size;

        Prefix(Object[] arr, int size) {
            this.arr = arr;
            this.size = size;
        }

        @SuppressWarnings("unchecked")
        @Override public T get(int i) {
            if (i < 0 || i >= size)
                throw new IndexOutOfBoundsException("Index " + i + ", size " + size);

            return (T)arr[i];
        }

        @Override public int size() {
            return size;
        }
    }
}
