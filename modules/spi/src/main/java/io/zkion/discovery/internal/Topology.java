package io.zkion.discovery.internal;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.cluster.ClusterNode;

/**
 * One topology version: the nodes in order, and each node's record as encoded when it joined (the bytes a
 * snapshot for a joining node is copied from). Immutable; every membership event makes a new one.
 * <p>
 * Versions share their nodes' arrays ({@link Lineage}), so that an event costs the same at 1,000 nodes as at 10
 * (issue 20). A join to the newest version appends: copying the whole topology per join made a join storm cost each
 * member O(N²). A departure leaves a gap: the new version lists the slots it no longer sees ({@code gone}), so that
 * 100 nodes failing at once do not cost each of 900 members 100 copies of the topology (at 1,000 members those copies
 * held the last member's NODE_FAILED back by seconds). Past an eighth of its slots in gaps (64 below 512 nodes), or
 * for a join to an older version, a version copies its nodes into arrays of its own. Each version sees only the slots below its
 * {@code slots}, less its gaps, and those never change.
 */
public final class Topology {
    public static final Topology EMPTY = new Topology(0, new Lineage(0), 0, Slots.NONE);

    /** Gaps a version of any size may have before a departure copies. */
    static final int MIN_GONE = 64;

    private final long topVer;
    private final Lineage lineage;
    /** The lineage's arrays as this version was made: their slots below {@link #slots} are immutable. */
    private final ZkIonClusterNode[] nodes;
    private final byte[][] records;
    private final int slots;
    /** Slots below {@link #slots} whose nodes departed before this version, ascending. */
    private final int[] gone;
    private final Slots<ZkIonClusterNode> members;
    private final List<ClusterNode> view;

    private Topology(long topVer, Lineage lineage, int slots, int[] gone) {
        this.topVer = topVer;
        this.lineage = lineage;
        this.nodes = lineage.nodes;
        this.records = lineage.records;
        this.slots = slots;
        this.gone = gone;
        this.members = new Slots<>(nodes, slots, gone);
        this.view = Collections.unmodifiableList(members); // Typed as Ignite's; the slots are read-only already.
    }

    /** Builds a topology from nodes in ascending order. */
    public static Topology of(long topVer, List<ZkIonClusterNode> ordered, Map<UUID, byte[]> records) {
        Lineage l = new Lineage(ordered.size());

        for (ZkIonClusterNode n : ordered)
            l.put(n, records.get(n.id()));

        return new Topology(topVer, l, l.size, Slots.NONE);
    }

    public long topVer() {
        return topVer;
    }

    /** A node joined; its order is the new topology version, so appending keeps the order sorted. */
    public Topology withJoined(long topVer, ZkIonClusterNode node, byte[] record) {
        if (slots > 0) {
            synchronized (lineage) {
                if (lineage.size == slots && !lineage.index.containsKey(node.id())) {
                    lineage.append(node, record);

                    return new Topology(topVer, lineage, slots + 1, gone);
                }
            }
        }

        Lineage l = copy(null);

        l.put(node, record);

        return new Topology(topVer, l, l.size, Slots.NONE);
    }

    public Topology without(long topVer, UUID id) {
        int at = slotOf(id);

        // Up to an eighth of the slots: the copy's O(N) then comes once per N/8 departures, about 8 nodes' worth a
        // departure on average; the gaps' list, copied each time, is a few hundred ints at most.
        if (at >= 0 && gone.length < Math.max(MIN_GONE, slots / 8))
            return new Topology(topVer, lineage, slots, Slots.plus(gone, at));

        Lineage l = copy(id);

        return new Topology(topVer, l, l.size, Slots.NONE);
    }

    /** @return A new lineage with this version's nodes, less {@code skip}'s. */
    private Lineage copy(UUID skip) {
        Lineage l = new Lineage(slots + 1);

        for (Slots<?>.Cursor c = members.cursor(); c.more(); ) {
            int i = c.take();

            if (!nodes[i].id().equals(skip))
                l.put(nodes[i], records[i]);
        }

        return l;
    }

    /** @return The slot of {@code id}'s node in this version, or -1 if it has none. */
    private int slotOf(UUID id) {
        Integer i = lineage.index.get(id);

        // The lineage may have grown past this version: a node appended later is not in it.
        return i != null && i < slots && Arrays.binarySearch(gone, i) < 0 ? i : -1;
    }

    public ZkIonClusterNode node(UUID id) {
        int i = slotOf(id);

        return i < 0 ? null : nodes[i];
    }

    public boolean contains(UUID id) {
        return slotOf(id) >= 0;
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
        return new Slots<>(records, slots, gone);
    }

    /** @return The oldest server whose id is in {@code alive}, or null: the coordinator, for non-TCP SPIs. */
    public ZkIonClusterNode oldestServer(Set<UUID> alive) {
        for (ZkIonClusterNode n : members) {
            if (!n.isClient() && alive.contains(n.id()))
                return n;
        }

        return null;
    }

    public int size() {
        return members.size();
    }

    @Override public String toString() {
        StringBuilder b = new StringBuilder("Topology[ver=").append(topVer).append(", nodes=[");
        String sep = "";

        for (ZkIonClusterNode n : members) {
            b.append(sep).append(n.id());
            sep = ", ";
        }

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
                nodes = Arrays.copyOf(nodes, size * 2);
                records = Arrays.copyOf(records, size * 2);
            }

            nodes[size] = n;
            records[size] = record;
            index.put(n.id(), size);
            size++;
        }
    }

    /**
     * A read-only view of an array's slots below {@code slots}, less the gaps in {@code gone} (AbstractList refuses
     * every change).
     */
    private static final class Slots<T> extends AbstractList<T> implements RandomAccess {
        static final int[] NONE = new int[0];

        private final Object[] arr;
        private final int slots;
        private final int[] gone;

        Slots(Object[] arr, int slots, int[] gone) {
            this.arr = arr;
            this.slots = slots;
            this.gone = gone;
        }

        /** @return {@code gone} with {@code slot} added in order. */
        static int[] plus(int[] gone, int slot) {
            int at = -Arrays.binarySearch(gone, slot) - 1;
            int[] res = new int[gone.length + 1];

            System.arraycopy(gone, 0, res, 0, at);
            res[at] = slot;
            System.arraycopy(gone, at, res, at + 1, gone.length - at);

            return res;
        }

        @SuppressWarnings("unchecked")
        @Override public T get(int i) {
            if (i < 0 || i >= size())
                throw new IndexOutOfBoundsException("Index " + i + ", size " + size());

            // The i-th slot seen is i plus the gaps before it. Gap m has gone[m] - m slots seen before it, a figure
            // that never falls as m grows: the gaps before are those where it is at most i.
            int lo = 0;
            int hi = gone.length;

            while (lo < hi) {
                int mid = (lo + hi) >>> 1;

                if (gone[mid] - mid <= i)
                    lo = mid + 1;
                else
                    hi = mid;
            }

            return (T)arr[i + lo];
        }

        @Override public int size() {
            return slots - gone.length;
        }

        @Override public Iterator<T> iterator() {
            Cursor c = cursor();

            return new Iterator<T>() {
                @Override public boolean hasNext() {
                    return c.more();
                }

                @SuppressWarnings("unchecked")
                @Override public T next() {
                    if (!c.more())
                        throw new NoSuchElementException();

                    return (T)arr[c.take()];
                }
            };
        }

        Cursor cursor() {
            return new Cursor();
        }

        /** Walks the slots seen, ascending, stepping over each gap once. */
        final class Cursor {
            private int next;
            private int gap;

            Cursor() {
                skipGaps();
            }

            boolean more() {
                return next < slots;
            }

            int take() {
                int slot = next++;

                skipGaps();

                return slot;
            }

            private void skipGaps() {
                while (gap < gone.length && gone[gap] == next) {
                    next++;
                    gap++;
                }
            }
        }
    }
}
