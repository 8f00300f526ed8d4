package io.zkion.discovery.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteProductVersion;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Versions of a topology share what joins appended (issue 20): each must still show exactly the nodes it was made
 * with, whatever later versions add, remove or build on an older version.
 */
public class TopologyTest {
    @Test public void anOlderVersionDoesNotSeeLaterJoins() {
        ZkIonClusterNode a = node(), b = node(), c = node();
        Topology t1 = Topology.EMPTY.withJoined(1, a, rec(1));
        Topology t2 = t1.withJoined(2, b, rec(2));
        Topology t3 = t2.withJoined(3, c, rec(3));

        assertNodes(t1, a);
        assertNodes(t2, a, b);
        assertNodes(t3, a, b, c);
        assertNull("t2 was made before c joined", t2.node(c.id()));
        assertFalse(t2.contains(c.id()));
        assertSame(c, t3.node(c.id()));
        assertEquals(3, t3.topVer());
        assertArrayEquals(rec(2), t3.records().get(1));
        assertEquals(2, t2.records().size());
    }

    /** Two versions built on one: the second must not see the first's node, nor change what the first sees. */
    @Test public void aJoinToAnOlderVersionCopies() {
        ZkIonClusterNode a = node(), b = node(), c = node();
        Topology t1 = Topology.EMPTY.withJoined(1, a, rec(1));
        Topology withB = t1.withJoined(2, b, rec(2));
        Topology withC = t1.withJoined(2, c, rec(3));

        assertNodes(withB, a, b);
        assertNodes(withC, a, c);
        assertNull(withC.node(b.id()));
        assertNull(withB.node(c.id()));
        assertArrayEquals(rec(3), withC.records().get(1));
        assertArrayEquals(rec(2), withB.records().get(1));
    }

    @Test public void aDepartureLeavesEarlierVersionsWhole() {
        ZkIonClusterNode a = node(), b = node(), c = node(), d = node();
        Topology t3 = Topology.of(3, List.of(a, b, c), Collections.emptyMap());
        Topology t4 = t3.without(4, b.id());
        Topology t5 = t4.withJoined(5, d, rec(5));

        assertNodes(t3, a, b, c);
        assertNodes(t4, a, c);
        assertNodes(t5, a, c, d);
        assertNull(t5.node(b.id()));
        assertSame(b, t3.node(b.id()));
        assertNull(t3.node(d.id()));
    }

    /**
     * Departures leave gaps that later versions skip: every version, before and after, past the gaps a version may
     * have (where it copies), shows exactly its nodes, by index, by iteration and by id.
     */
    @Test public void departuresLeaveEveryVersionWhole() {
        departuresLeaveEveryVersionWhole(3 * Topology.MIN_GONE);
    }

    /** Past {@link Topology#MIN_GONE}: a version of 1,200 nodes has up to 150 gaps before it copies. */
    @Test public void departuresFromALargeTopologyLeaveEveryVersionWhole() {
        departuresLeaveEveryVersionWhole(1_200);
    }

    private static void departuresLeaveEveryVersionWhole(int size) {
        List<ZkIonClusterNode> all = new ArrayList<>();
        Map<ZkIonClusterNode, byte[]> recs = new HashMap<>();
        Map<UUID, byte[]> recsById = new HashMap<>();

        for (int i = 0; i < size; i++) {
            ZkIonClusterNode n = node();

            all.add(n);
            recs.put(n, rec(i));
            recsById.put(n.id(), rec(i));
        }

        // A run of neighbours (gaps side by side), the last slot, every other node from the start with a join every
        // eighth departure (one of them leaving again at once, the newest slot), and the first slot last.
        List<ZkIonClusterNode> order = new ArrayList<>(all.subList(5, 21));

        order.add(all.get(size - 1));

        for (int i = 23; i < size - 1; i += 2)
            order.add(all.get(i));

        order.add(all.get(0));

        List<ZkIonClusterNode> expected = new ArrayList<>(all);
        List<List<ZkIonClusterNode>> expectedAt = new ArrayList<>();
        List<Topology> versions = new ArrayList<>();
        Topology t = Topology.of(size, all, recsById);
        long ver = size;

        versions.add(t);
        expectedAt.add(new ArrayList<>(expected));

        for (int k = 0; k < order.size(); k++) {
            t = t.without(++ver, order.get(k).id());
            expected.remove(order.get(k));

            if (k % 8 == 7) {
                ZkIonClusterNode joined = node();

                recs.put(joined, rec(size + k));
                t = t.withJoined(++ver, joined, rec(size + k));
                expected.add(joined);

                if (k % 32 == 31) {
                    t = t.without(++ver, joined.id());
                    expected.remove(joined);
                }
            }

            versions.add(t);
            expectedAt.add(new ArrayList<>(expected));
        }

        for (int v = 0; v < versions.size(); v++) {
            Topology tv = versions.get(v);
            List<ZkIonClusterNode> exp = expectedAt.get(v);
            Set<ZkIonClusterNode> in = new HashSet<>(exp);

            assertNodes(tv, exp.toArray(new ZkIonClusterNode[0]));
            assertEquals(exp.size(), tv.records().size());

            for (int i = 0; i < exp.size(); i++) {
                assertSame("version " + tv.topVer() + ", index " + i, exp.get(i), tv.nodes().get(i));
                assertArrayEquals("version " + tv.topVer() + ", record " + i, recs.get(exp.get(i)), tv.records().get(i));
            }

            for (ZkIonClusterNode n : recs.keySet()) {
                if (!in.contains(n))
                    assertNull("version " + tv.topVer() + " still has a departed node", tv.node(n.id()));
            }
        }
    }

    /** After a departure, a join to the version before it, and a departed id joining again, each get their own. */
    @Test public void joinsAfterADepartureToAnOlderVersionOrOfTheSameIdStaySeparate() {
        ZkIonClusterNode a = node(), b = node(), c = node(), d = node();
        ZkIonClusterNode b2 = new ZkIonClusterNode(b.id(), "again", b.version(), Collections.emptyMap(),
            Collections.singleton("127.0.0.1"), Collections.singleton("localhost"), false);
        Topology t3 = Topology.of(3, List.of(a, b, c), Collections.emptyMap());
        Topology t4 = t3.without(4, b.id());
        Topology fromOlder = t3.withJoined(4, d, rec(4));
        Topology t5 = t4.withJoined(5, d, rec(5));
        Topology again = t4.withJoined(5, b2, rec(6));

        assertNodes(t3, a, b, c);
        assertNodes(t4, a, c);
        assertNodes(fromOlder, a, b, c, d);
        assertNodes(t5, a, c, d);
        assertNodes(again, a, c, b2);
        assertNull(t4.node(b.id()));
        assertSame(b, t3.node(b.id()));
    }

    /** Ignite's threads read versions while departures leave gaps and joins append: each read sees its version whole. */
    @Test public void readersSeeTheirVersionWhileDeparturesAndJoinsGoOn() throws Exception {
        List<ZkIonClusterNode> first = new ArrayList<>();

        for (int i = 0; i < 500; i++)
            first.add(node());

        // Each step: the oldest leaves and a new node joins, so gaps build up and versions copy in turn.
        readWhileWriting(Topology.of(500, first, Collections.emptyMap()), 1_750, false, t -> t
            .without(t.topVer() + 1, t.nodes().get(0).id()).withJoined(t.topVer() + 2, node(), rec(0)));
    }

    /** The records stay beside their nodes across gaps: a snapshot for a joiner pairs each node with its record. */
    @Test public void recordsFollowTheirNodesAcrossGaps() {
        ZkIonClusterNode a = node(), b = node(), c = node(), d = node();
        Topology t = Topology.EMPTY.withJoined(1, a, rec(1)).withJoined(2, b, rec(2)).withJoined(3, c, rec(3))
            .without(4, b.id()).withJoined(5, d, rec(5));

        assertNodes(t, a, c, d);
        assertArrayEquals(rec(1), t.records().get(0));
        assertArrayEquals(rec(3), t.records().get(1));
        assertArrayEquals(rec(5), t.records().get(2));

        List<byte[]> iterated = new ArrayList<>(t.records());

        assertArrayEquals(rec(3), iterated.get(1));
        assertSame(c, t.oldestServer(Set.of(c.id(), d.id())));
        assertNull(t.oldestServer(Set.of(b.id())));
        assertNodes(t.without(6, b.id()), a, c, d); // Not in this version: nothing to take out.
    }

    /** Past the first arrays' capacity: the versions made before keep theirs. */
    @Test public void versionsSurviveTheArraysGrowing() {
        List<ZkIonClusterNode> all = new ArrayList<>();
        List<Topology> versions = new ArrayList<>();
        Topology t = Topology.EMPTY;

        for (int i = 1; i <= 100; i++) {
            ZkIonClusterNode n = node();

            all.add(n);
            t = t.withJoined(i, n, rec(i));
            versions.add(t);
        }

        for (int v = 0; v < versions.size(); v++) {
            Topology tv = versions.get(v);

            assertEquals(v + 1, tv.size());
            assertEquals(all.subList(0, v + 1), tv.nodes());
            assertArrayEquals(rec(v + 1), tv.records().get(v));
            assertNull(v + 1 < all.size() ? tv.node(all.get(v + 1).id()) : null);
        }
    }

    @Test public void aJoinOfAKnownIdReplacesItInPlace() {
        ZkIonClusterNode a = node(), b = node();
        ZkIonClusterNode a2 = new ZkIonClusterNode(a.id(), "again", a.version(), Collections.emptyMap(),
            Collections.singleton("127.0.0.1"), Collections.singleton("localhost"), false);
        Topology t = Topology.of(2, List.of(a, b), Collections.emptyMap()).withJoined(3, a2, rec(3));

        assertNodes(t, a2, b);
    }

    @Test public void theViewsAreReadOnly() {
        Topology t = Topology.EMPTY.withJoined(1, node(), rec(1));

        try {
            t.nodes().add(node());
            fail("the snapshot Ignite gets must be read-only");
        }
        catch (UnsupportedOperationException expected) {
            // Expected.
        }

        try {
            t.members().clear();
            fail("members() must be read-only");
        }
        catch (UnsupportedOperationException expected) {
            // Expected.
        }
    }

    /** Ignite's threads read versions while the discovery thread appends: each read sees its version whole. */
    @Test public void readersSeeTheirVersionWhileJoinsAppend() throws Exception {
        readWhileWriting(Topology.EMPTY.withJoined(1, node(), rec(1)), 4_999, true,
            t -> t.withJoined(t.topVer() + 1, node(), rec((int)t.topVer() + 1)));
    }

    /**
     * Makes {@code steps} versions, each from the last by {@code next}, while another thread reads the newest again and
     * again: by iteration, by index and by id, each read must see that version whole.
     *
     * @param sizeIsTopVer Whether each version has as many nodes as its topology version (joins alone).
     */
    private static void readWhileWriting(Topology start, int steps, boolean sizeIsTopVer, UnaryOperator<Topology> next)
        throws Exception {
        AtomicReference<Topology> latest = new AtomicReference<>(start);
        AtomicReference<String> wrong = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            while (done.getCount() > 0 && wrong.get() == null) {
                Topology t = latest.get();
                List<ClusterNode> ns = t.nodes();
                int size = ns.size();
                int seen = 0;

                for (ClusterNode n : ns) {
                    if (n == null || t.node(n.id()) != n || ns.get(seen) != n)
                        wrong.set("version " + t.topVer() + ", node " + seen);

                    seen++;
                }

                if (seen != size || size != t.size() || (sizeIsTopVer && size != t.topVer()))
                    wrong.set("version " + t.topVer() + " iterated " + seen + " of " + size);
            }
        });

        reader.start();

        for (int i = 0; i < steps; i++)
            latest.set(next.apply(latest.get()));

        done.countDown();
        reader.join();
        assertNull(wrong.get(), wrong.get());
    }

    private static void assertNodes(Topology t, ZkIonClusterNode... expected) {
        List<ZkIonClusterNode> members = new ArrayList<>(t.members());

        assertEquals(List.of(expected), t.nodes());
        assertEquals(List.of(expected), members);
        assertEquals(expected.length, t.size());

        for (ZkIonClusterNode n : expected) {
            assertSame(n, t.node(n.id()));
            assertTrue(t.contains(n.id()));
        }

        assertTrue(t.toString(), t.toString().contains(expected[expected.length - 1].id().toString()));
    }

    private static byte[] rec(int i) {
        return new byte[] {(byte)i, (byte)(i >> 8)};
    }

    private static ZkIonClusterNode node() {
        return new ZkIonClusterNode(UUID.randomUUID(), UUID.randomUUID().toString(),
            IgniteProductVersion.fromString("2.17.0"), Collections.emptyMap(), Collections.singleton("127.0.0.1"),
            Collections.singleton("localhost"), false);
    }
}
