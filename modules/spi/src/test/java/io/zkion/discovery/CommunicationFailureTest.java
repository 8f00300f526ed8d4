package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CommunicationFailureContext;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Communication-failure rounds (issue 21) on real nodes and a real ZooKeeper: a peer that Ignite's communication
 * cannot reach is decided on in one round, by the resolver, the same on every node. The connection checks answer from
 * a matrix ({@link MatrixCommunicationSpi}).
 */
@SuppressWarnings("unchecked")
public class CommunicationFailureTest extends MatrixTestSupport {
    /** The orders a {@link KillOrders} resolver removes; null for Ignite's default resolver. */
    private static volatile Set<Long> killOrders;

    /** A resolver every node gets, instead of the default or {@link KillOrders}; null for those. */
    private static volatile CommunicationFailureResolver custom;

    /** How long each call that got a verdict took, from the call (Ignite's report) to its return, ms. */
    private static final List<Long> CALL_MS = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Per node: its NODE_FAILED events, as "order@topVer". */
    private final Map<String, List<String>> failures = new ConcurrentHashMap<>();

    @Before public void resetResolvers() {
        killOrders = null;
        custom = null;
    }

    /** Prints the calls' times, for the record: the wait for the peer to fail on its own is in them. */
    @org.junit.AfterClass public static void printCallTimes() {
        List<Long> ms = new ArrayList<>(CALL_MS);

        java.util.Collections.sort(ms);

        if (!ms.isEmpty()) {
            System.out.println("Communication failure calls: " + ms.size() + ", from the call to its verdict p50 "
                + ms.get(ms.size() / 2) + " ms, max " + ms.get(ms.size() - 1) + " ms: " + ms);
        }
    }

    @After public void releaseChecks() {
        MatrixCommunicationSpi.release.countDown();
    }

    @Override protected CommunicationFailureResolver resolver() {
        if (custom != null)
            return custom;

        return killOrders == null ? null : new KillOrders();
    }

    /** A resolver that removes the nodes of the orders the test names, whatever the matrix. */
    static class KillOrders implements CommunicationFailureResolver {
        @Override public void resolve(CommunicationFailureContext ctx) {
            for (ClusterNode n : ctx.topologySnapshot()) {
                if (killOrders.contains(n.order()))
                    ctx.killNode(n);
            }
        }
    }

    @Test(timeout = 120_000) public void aRoundWhereEveryNodeReachesEveryOtherRemovesNobody() throws Exception {
        killOrders = Set.of(2L); // Never asked: every node reaches every other.

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");

        assertNull(timedResolve(s1, s2).get(60, TimeUnit.SECONDS));
        assertEquals(2, s1.cluster().nodes().size());
        awaitRoundOver();
        assertEquals(1, spiOf(s1).discoveryMetrics().communicationErrors());
    }

    @Test(timeout = 180_000) public void aRoundOfTenNodesRemovesNobodyWhenAllAreConnected() throws Exception {
        List<Ignite> all = new ArrayList<>();

        for (int i = 1; i <= 10; i++)
            all.add(start("s" + i));

        CompletableFuture<Throwable> a = timedResolve(all.get(3), all.get(7));
        CompletableFuture<Throwable> b = timedResolve(all.get(8), all.get(1));

        assertNull(a.get(60, TimeUnit.SECONDS));
        assertNull(b.get(60, TimeUnit.SECONDS));
        assertEquals(10, all.get(0).cluster().nodes().size());
        awaitRoundOver();
    }

    @Test(timeout = 120_000) public void theResolversKillsFailEverywhereAtOneTopologyVersion() throws Exception {
        killOrders = Set.of(2L);

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        UUID id2 = s2.cluster().localNode().id();

        watchFailures(s1, s3);
        MatrixCommunicationSpi.cut("s1", "s2"); // Not every node reaches every other: the resolver decides.

        Throwable t = timedResolve(s1, s2).get(60, TimeUnit.SECONDS);

        assertPeerFailed(t, id2);

        for (Ignite n : List.of(s1, s3))
            await(n.name() + " saw s2 fail", 30_000, () -> !failures.get(n.name()).isEmpty());

        assertEquals(failures.get("s1"), failures.get("s3"));
        await("s2 stopped", 30_000, () -> Ignition.allGrids().stream().noneMatch(g -> g.name().equals("s2")));
        awaitRoundOver();

        // The stock counter on the caller; ZkIon's own on the coordinator that decided.
        assertEquals(1L, metric(s1, "io.discovery", "CommunicationErrors"));
        assertEquals(1L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        assertEquals(1L, metric(s1, "io.discovery.zkion", "CommunicationFailureKills"));
        assertEquals(0L, metric(s3, "io.discovery", "CommunicationErrors"));
        assertEquals(1L, spiMBean(s1).getCommErrorProcNum()); // The same counter, as the stock SPI's MXBean shows it.

        Ignite s4 = start("s4");

        assertEquals(3, s4.cluster().nodes().size());
    }

    /** Order 2 of 2: the caller's peer is removed, the caller stays alone, and a new node joins it. */
    @Test(timeout = 120_000) public void theOnlyOtherServerIsRemoved() throws Exception {
        killOrders = Set.of(2L);

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");

        MatrixCommunicationSpi.cut("s1", "s2");

        assertPeerFailed(timedResolve(s1, s2).get(60, TimeUnit.SECONDS), s2.cluster().localNode().id());
        await("s1 alone", 30_000, () -> s1.cluster().nodes().size() == 1);
        assertEquals(2, start("s3").cluster().nodes().size());
    }

    /** Orders 2, 4 and 6 of 10, in one verdict: every survivor sees the same three failures. */
    @Test(timeout = 240_000) public void threeOfTenAreRemovedInOneVerdict() throws Exception {
        killOrders = Set.of(2L, 4L, 6L);

        List<Ignite> all = new ArrayList<>();

        for (int i = 1; i <= 10; i++)
            all.add(start("s" + i));

        watchFailures(all.get(0), all.get(9));
        MatrixCommunicationSpi.cut("s1", "s2");

        assertPeerFailed(timedResolve(all.get(0), all.get(1)).get(60, TimeUnit.SECONDS), all.get(1).cluster().localNode().id());

        for (Ignite n : List.of(all.get(0), all.get(9)))
            await(n.name() + " saw three fail", 30_000, () -> failures.get(n.name()).size() == 3);

        assertEquals(failures.get("s1"), failures.get("s10"));
        await("7 left", 30_000, () -> all.get(0).cluster().nodes().size() == 7);
        assertEquals(8, start("s11").cluster().nodes().size());
    }

    /** Three rounds in a row, each removing the coordinator of the moment: the role passes on every time. */
    @Test(timeout = 240_000) public void theCoordinatorIsRemovedRoundAfterRound() throws Exception {
        killOrders = Set.of(); // Every node gets KillOrders; each round names whom it removes.

        List<Ignite> all = new ArrayList<>();

        for (int i = 1; i <= 5; i++)
            all.add(start("s" + i));

        for (int round = 0; round < 3; round++) {
            Ignite crd = all.get(round);
            Ignite caller = all.get(4);

            killOrders = Set.of(crd.cluster().localNode().order());
            MatrixCommunicationSpi.cut(caller.name(), crd.name());

            assertPeerFailed(timedResolve(caller, crd).get(60, TimeUnit.SECONDS), crd.cluster().localNode().id());

            int left = 4 - round;

            await(left + " left", 30_000, () -> caller.cluster().nodes().size() == left);
        }

        assertEquals(3, start("s6").cluster().nodes().size());
        awaitRoundOver();
    }

    @Test(timeout = 120_000) public void aKillSetWithTheCoordinatorHandsTheRoleOn() throws Exception {
        killOrders = Set.of(1L, 3L);

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite s4 = start("s4");
        UUID id1 = s1.cluster().localNode().id();

        watchFailures(s2, s4);
        MatrixCommunicationSpi.cut("s2", "s1");

        assertPeerFailed(timedResolve(s2, s1).get(60, TimeUnit.SECONDS), id1);

        for (Ignite n : List.of(s2, s4))
            await(n.name() + " saw both fail", 30_000, () -> failures.get(n.name()).size() == 2);

        assertEquals(failures.get("s2"), failures.get("s4"));
        await("s1 and s3 stopped", 30_000, () -> Ignition.allGrids().stream()
            .noneMatch(g -> g.name().equals("s1") || g.name().equals("s3")));

        Ignite s5 = start("s5");

        assertEquals(3, s5.cluster().nodes().size());
        awaitRoundOver();
    }

    @Test(timeout = 120_000) public void ignitesDefaultResolverRemovesAnIsolatedServer() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        UUID id3 = s3.cluster().localNode().id();

        MatrixCommunicationSpi.cut("s3", "s1");
        MatrixCommunicationSpi.cut("s3", "s2");

        CountDownLatch segmented = new CountDownLatch(1);

        s3.events().localListen(e -> {
            segmented.countDown();
            return true;
        }, EventType.EVT_NODE_SEGMENTED);

        assertPeerFailed(timedResolve(s1, s3).get(60, TimeUnit.SECONDS), id3);
        assertTrue("s3 stopped as segmented", segmented.await(30, TimeUnit.SECONDS));
        await("s3 stopped", 30_000, () -> Ignition.allGrids().stream().noneMatch(g -> g.name().equals("s3")));
        await("s1 and s2 without s3", 30_000, () -> s1.cluster().nodes().size() == 2 && s2.cluster().nodes().size() == 2);
        assertEquals(3, start("s4").cluster().nodes().size());
    }

    /** A custom resolver reads the caches through ZkIon's context: their configurations, affinity and owners. */
    @Test(timeout = 120_000) public void theResolverSeesTheCachesThroughTheContext() throws Exception {
        Map<String, Object> seen = new ConcurrentHashMap<>();

        custom = ctx -> {
            seen.put("caches", new java.util.TreeSet<>(ctx.startedCaches().keySet()));
            seen.put("affinity", ctx.cacheAffinity("c"));
            seen.put("owners", ctx.cachePartitionOwners("c"));
            seen.put("nodes", ctx.topologySnapshot().size());
        };

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");

        s1.getOrCreateCache(new org.apache.ignite.configuration.CacheConfiguration<Integer, Integer>("c").setBackups(1)
            .setAffinity(new org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction(false, 32)))
            .put(1, 1);

        MatrixCommunicationSpi.cut("s1", "s2");

        assertNull("the resolver removed nobody", timedResolve(s1, s2).get(60, TimeUnit.SECONDS));

        assertTrue(String.valueOf(seen.get("caches")), ((Set<?>)seen.get("caches")).contains("c"));
        assertEquals(3, seen.get("nodes"));

        List<List<ClusterNode>> aff = (List<List<ClusterNode>>)seen.get("affinity");
        List<List<ClusterNode>> owners = (List<List<ClusterNode>>)seen.get("owners");

        assertEquals(32, aff.size());
        assertEquals(32, owners.size());

        for (int p = 0; p < 32; p++) {
            assertEquals("partition " + p + " has a primary and a backup", 2, aff.get(p).size());
            assertFalse("partition " + p + " has an owner", owners.get(p).isEmpty());
        }

        assertEquals(3, s1.cluster().nodes().size());
    }

    /**
     * Ignite's default resolver on a split: servers 1-3 and 4-5 cannot reach each other, one client reaches every
     * server, another only 4-5. The larger side stays with the client that reaches all of it; the rest is removed.
     */
    @Test(timeout = 180_000) public void ignitesDefaultResolverKeepsTheLargerSideOfASplit() throws Exception {
        List<Ignite> servers = new ArrayList<>();

        for (int i = 1; i <= 5; i++)
            servers.add(start("s" + i));

        Ignite c1 = startClient("c1");
        Ignite c2 = startClient("c2");

        for (String a : List.of("s1", "s2", "s3")) {
            MatrixCommunicationSpi.cut(a, "c2");

            for (String b : List.of("s4", "s5"))
                MatrixCommunicationSpi.cut(a, b);
        }

        List<UUID> removed = List.of(servers.get(3).cluster().localNode().id(), servers.get(4).cluster().localNode().id(),
            c2.cluster().localNode().id());
        UUID kept = c1.cluster().localNode().id();
        CompletableFuture<Throwable> call = timedResolve(servers.get(0), servers.get(3));

        assertPeerFailed(call.get(60, TimeUnit.SECONDS), removed.get(0));

        // A removed client rejoins under a new id; the removed ones are gone, c1 stays.
        await("s4, s5 and the first c2 removed", 60_000, () -> removed.stream()
            .noneMatch(id -> servers.get(0).cluster().node(id) != null) && servers.get(0).cluster().node(kept) != null);

        List<String> names = new ArrayList<>();

        for (ClusterNode n : servers.get(0).cluster().forServers().nodes())
            names.add(n.attribute(org.apache.ignite.internal.IgniteNodeAttributes.ATTR_IGNITE_INSTANCE_NAME));

        java.util.Collections.sort(names);
        assertEquals(List.of("s1", "s2", "s3"), names);
        awaitRoundOver();
    }

    /**
     * Calls from several nodes while nodes join and leave and caches come and go: every call returns (every node
     * reaches every other), rounds never overlap, and nothing is left under comm/.
     */
    @Test(timeout = 240_000) public void callsDuringJoinsLeavesAndCacheChurnAllEnd() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<CompletableFuture<?>> churn = new ArrayList<>();

        churn.add(CompletableFuture.runAsync(() -> {
            for (int i = 0; !stop.get(); i++) {
                Ignite j = start("j" + i);

                nodes.remove(j);
                Ignition.stop(j.name(), true);
            }
        }));
        churn.add(CompletableFuture.runAsync(() -> {
            for (int i = 0; !stop.get(); i++) {
                s2.getOrCreateCache("churn" + i % 3).put(i, i);
                s2.destroyCache("churn" + i % 3);
            }
        }));

        List<CompletableFuture<Throwable>> calls = new ArrayList<>();

        for (int round = 0; round < 2; round++) {
            calls.add(timedResolve(s1, s2));
            calls.add(timedResolve(s3, s1));
            calls.add(timedResolve(s2, s3));

            for (CompletableFuture<Throwable> c : calls)
                assertNull(c.get(120, TimeUnit.SECONDS));

            calls.clear();
        }

        stop.set(true);

        for (CompletableFuture<?> f : churn)
            f.get(120, TimeUnit.SECONDS);

        assertEquals(3, s1.cluster().nodes().size());
        assertTrue("rounds ran", metric(s1, "io.discovery.zkion", "CommunicationFailureRounds") >= 1);
        awaitRoundOver();
    }

    @Test(timeout = 120_000) public void aClientPeerGivesNoRound() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1");

        long t0 = System.nanoTime();

        assertNull(timedResolve(s1, c1).get(30, TimeUnit.SECONDS));
        assertTrue("returned at once", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 5_000);
        assertFalse("no check ran", MatrixCommunicationSpi.CHECKING.contains("s1"));
        assertEquals(2, s1.cluster().nodes().size());
        // As the stock SPI's counter: a client peer is no communication error taken up.
        assertEquals(0L, metric(s1, "io.discovery", "CommunicationErrors"));
        assertEquals(0L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
    }

    @Test(timeout = 120_000) public void joinsWaitWhileARoundRuns() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");

        MatrixCommunicationSpi.release = new CountDownLatch(1);
        MatrixCommunicationSpi.HELD.add("s2");

        CompletableFuture<Throwable> call = timedResolve(s1, s2);

        await("s2 checks", 30_000, () -> MatrixCommunicationSpi.CHECKING.contains("s2"));

        CompletableFuture<Ignite> joiner = CompletableFuture.supplyAsync(() -> start("s3"));

        Thread.sleep(3_000); // The join request is in; the coordinator holds it while the round is open.

        assertFalse("s3 joined during the round", joiner.isDone());
        assertEquals(2, s1.cluster().nodes().size());

        MatrixCommunicationSpi.release.countDown();

        assertNull(call.get(60, TimeUnit.SECONDS));
        assertEquals(3, joiner.get(60, TimeUnit.SECONDS).cluster().nodes().size());
    }

    @Test(timeout = 180_000) public void aRoundEndsWhenTheCoordinatorStopsInIt() throws Exception {
        killOrders = Set.of(3L);

        Ignite[] s = threeServersWithAHeldCheck("s2");
        Ignite s1 = s[0];
        Ignite s2 = s[1];
        UUID id3 = s[2].cluster().localNode().id();

        MatrixCommunicationSpi.cut("s2", "s3");

        CompletableFuture<Throwable> call = timedResolve(s2, s[2]);

        await("s2 checks", 30_000, () -> MatrixCommunicationSpi.CHECKING.contains("s2"));
        Ignition.stop(s1.name(), true);
        MatrixCommunicationSpi.release.countDown();

        // s2, the next coordinator, finds the round open in its log and decides it from the reports.
        assertPeerFailed(call.get(90, TimeUnit.SECONDS), id3);
        await("s2 alone", 30_000, () -> s2.cluster().nodes().size() == 1);
        awaitRoundOver();
    }

    @Test(timeout = 180_000) public void aNodeThatLosesZooKeeperInARoundDoesNotHoldIt() throws Exception {
        killOrders = Set.of(2L);

        Ignite[] s = threeServersWithAHeldCheck("s3");
        Ignite s1 = s[0];
        Ignite s3 = s[2];
        UUID id2 = s[1].cluster().localNode().id();

        MatrixCommunicationSpi.cut("s1", "s2");

        CompletableFuture<Throwable> call = timedResolve(s1, s[1]);

        await("s3 checks", 30_000, () -> MatrixCommunicationSpi.CHECKING.contains("s3"));
        spiOf(s3).simulateNodeFailure(); // Its session ends before it reports.

        assertPeerFailed(call.get(90, TimeUnit.SECONDS), id2);
        await("s1 alone", 30_000, () -> s1.cluster().nodes().size() == 1);
        awaitRoundOver();
    }


    /** @return Servers s1, s2, s3; the connection checks of {@code held} wait for the test's release. */
    private Ignite[] threeServersWithAHeldCheck(String held) {
        Ignite[] s = {start("s1"), start("s2"), start("s3")};

        MatrixCommunicationSpi.release = new CountDownLatch(1);
        MatrixCommunicationSpi.HELD.add(held);

        return s;
    }

    /** @return The call's outcome, as {@link #resolve}, its time from the call to the verdict recorded. */
    private CompletableFuture<Throwable> timedResolve(Ignite from, Ignite peer) {
        ClusterNode p = peer.cluster().localNode();
        long t0 = System.nanoTime();

        return resolve(from, p).whenComplete((t, e) -> {
            if (!p.isClient())
                CALL_MS.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        });
    }

    private void watchFailures(Ignite... all) {
        for (Ignite n : all) {
            List<String> l = new java.util.concurrent.CopyOnWriteArrayList<>();

            failures.put(n.name(), l);
            n.events().localListen(e -> {
                org.apache.ignite.events.DiscoveryEvent d = (org.apache.ignite.events.DiscoveryEvent)e;

                l.add(d.eventNode().order() + "@" + d.topologyVersion());

                return true;
            }, EventType.EVT_NODE_FAILED);
        }
    }
}
