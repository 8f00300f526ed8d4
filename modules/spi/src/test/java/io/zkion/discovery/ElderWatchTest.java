package io.zkion.discovery;

import io.zkion.discovery.engine.ElderWatchOrder;
import io.zkion.discovery.zk.ZkFaults;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.KeeperException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Only the coordinator lists and watches alive/; every other node watches one alive znode, its elder's (issue 20:
 * no member lists N children per event, at most 3 watches per member). And the cases the succession rests on: the
 * coordinator and its successor failing together, a client whose watched server fails, and a watch that fails to
 * be set again as the elder goes.
 */
public class ElderWatchTest extends ZkIonTestSupport {
    static {
        System.setProperty("zookeeper.4lw.commands.whitelist", "*"); // wchp: who watches what.
    }

    /** Counts one node's listings of {@code path} and the watches it sets on it. */
    private static ZkFaults counting(String path, AtomicInteger calls) {
        return new ZkFaults.Quiet() {
            @Override public Exception failListing(String p) {
                return count(p);
            }

            @Override public Exception failWatch(String p) {
                return count(p);
            }

            private Exception count(String p) {
                if (p.equals(path))
                    calls.incrementAndGet();

                return null;
            }
        };
    }

    @Test(timeout = 180_000) public void onlyTheCoordinatorListsAndWatchesAlive() throws Exception {
        String alive = root + "/alive";
        Ignite s1 = start("s1");
        Map<String, AtomicInteger> listings = new HashMap<>();
        Map<String, Ignite> others = new HashMap<>();

        for (String name : new String[] {"s2", "s3", "c1"}) {
            AtomicInteger n = new AtomicInteger();

            listings.put(name, n);
            others.put(name, start(config(name, name.startsWith("c")).setDiscoverySpi(
                spi().setZkFaultsForTest(counting(alive, n)))));
        }

        // Membership changes after they joined: a join, a leave, a failure.
        Ignite s4 = start("s4");
        Ignite s5 = start("s5");

        org.apache.ignite.Ignition.stop(s4.name(), true);
        spiOf(s5).simulateNodeFailure();

        for (Ignite n : others.values())
            await(n.name() + " sees 4 nodes", 30_000, () -> n.cluster().nodes().size() == 4);

        for (Map.Entry<String, AtomicInteger> e : listings.entrySet())
            assertEquals(e.getKey() + " listed alive/", 0, e.getValue().get());

        Map<String, Set<String>> watched = watchesBySession();
        String crd = spiOf(s1).engine().sessionId();
        Set<String> aliveWatchers = new HashSet<>();

        for (Map.Entry<String, Set<String>> e : watched.entrySet()) {
            for (String p : e.getValue()) {
                assertTrue("a join's answer left watched: " + p, !p.startsWith(root + "/joined"));

                if (p.equals(alive))
                    aliveWatchers.add(e.getKey());
            }
        }

        assertEquals("alive/ is watched by the coordinator alone: " + watched, Set.of(crd), aliveWatchers);

        for (Ignite n : others.values()) {
            Set<String> paths = watched.get(spiOf(n).engine().sessionId());

            assertNotNull(n.name() + " watches nothing: " + watched, paths);

            // The server lists data watches only (persistent ones among them); the elder's is a child watch.
            paths = new HashSet<>(paths);
            paths.addAll(childWatches(n));

            assertTrue(n.name() + " watches at most 3 paths: " + paths, paths.size() <= 3);
        }

        // The client's elder is the server the pair of ids picks among s1, s2 and s3 (s4 and s5 are gone); s3's is s2,
        // the nearest older server.
        List<Ignite> servers = List.of(s1, others.get("s2"), others.get("s3"));
        Ignite picked = ElderWatchOrder.first(others.get("c1").cluster().localNode().id(), servers,
            n -> n.cluster().localNode().id());

        assertTrue(childWatches(others.get("c1")) + " watches " + picked.name(),
            childWatches(others.get("c1")).contains(alive + "/" + picked.cluster().localNode().id()));
        assertTrue(childWatches(others.get("s3")).contains(alive + "/"
            + others.get("s2").cluster().localNode().id()));
    }

    /**
     * Every member acks a message whose ack Ignite awaits, and an ack rewrites the member's alive znode. With a data
     * watch on its elder's, each of those acks woke the younger neighbour to set its watch again: N notifications, N
     * reads and N cycles per such message at N members. The watch is on the znode's children now: an elder's acks wake
     * nobody, and its failure still moves the watch on.
     */
    @Test(timeout = 180_000) public void anElderThatAcksWakesNobody() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        String s2Alive = root + "/alive/" + s2.cluster().localNode().id();
        AtomicInteger watchesOnS2 = new AtomicInteger();
        Ignite s3 = start(config("s3", false).setDiscoverySpi(spi().setZkFaultsForTest(counting(s2Alive,
            watchesOnS2))));
        List<String> seen = CustomMessageTest.pingsAndAcks(s3);

        await("s3 watches s2", 30_000, () -> watchesOnS2.get() > 0);

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            int set = watchesOnS2.get();
            int acks = zkc.checkExists().forPath(s2Alive).getVersion();

            for (int i = 0; i < 5; i++) {
                String tag = "p" + i;

                ((IgniteEx)s3).context().discovery().sendCustomEvent(new CustomMessageTest.Ping(tag));
                await("s3 got the ack of " + tag, 30_000, () -> seen.contains("ack " + tag));
            }

            assertTrue("s2 acked each ping", zkc.checkExists().forPath(s2Alive).getVersion() >= acks + 5);
            // One each with the data watch: 5. One more at most, from a cycle of s3's own that was on its way.
            assertTrue("s3 was woken by s2's acks to watch it again: " + (watchesOnS2.get() - set) + " times",
                watchesOnS2.get() - set <= 1);
        }

        spiOf(s2).simulateNodeFailure();
        await("s3 sees s2 fail", 30_000, () -> s3.cluster().nodes().size() == 2);
        await("s3 watches s1", 30_000, () -> childWatches(s3).contains(root + "/alive/"
            + s1.cluster().localNode().id()));
    }

    /** @return The paths {@code n} has one-shot child watches on: an elder's alive znode. */
    private static List<String> childWatches(Ignite n) {
        try {
            return spiOf(n).engine().childWatchesForTest();
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test(timeout = 180_000) public void theCoordinatorAndItsSuccessorFailTogether() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite s4 = start("s4");
        Ignite c1 = startClient("c1");

        Thread t1 = new Thread(() -> spiOf(s1).simulateNodeFailure());
        Thread t2 = new Thread(() -> spiOf(s2).simulateNodeFailure());

        t1.start();
        t2.start();
        t1.join();
        t2.join();

        for (Ignite n : List.of(s3, s4, c1))
            await(n.name() + " sees both fail", 30_000, () -> n.cluster().nodes().size() == 3);

        await("s3 coordinates", 10_000, () -> spiOf(s3).engine().coordinatorForTest() != null);
        assertNull("s4 does not coordinate", spiOf(s4).engine().coordinatorForTest());

        Ignite s5 = start("s5");

        for (Ignite n : List.of(s3, s4, c1, s5))
            await(n.name() + " sees s5", 30_000, () -> n.cluster().nodes().size() == 4);
    }

    @Test(timeout = 180_000) public void aClientFollowsTheNextServerWhenItsElderFails() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");
        List<String> seen = record(c1);
        // The server the pair of ids picks for c1: it watches that one, and the other once it fails.
        Ignite watched = ElderWatchOrder.first(c1.cluster().localNode().id(), List.of(s1, s2),
            n -> n.cluster().localNode().id());
        Ignite other = watched == s1 ? s2 : s1;
        String otherAlive = root + "/alive/" + other.cluster().localNode().id();
        long watchedOrder = watched.cluster().localNode().order();

        await("c1 watches " + watched.name(), 30_000, () -> childWatches(c1).contains(root + "/alive/"
            + watched.cluster().localNode().id()));

        spiOf(watched).simulateNodeFailure();
        await("c1 sees " + watched.name() + " fail", 30_000, () -> c1.cluster().nodes().size() == 2);
        await("c1 watches " + other.name(), 30_000, () -> childWatches(c1).contains(otherAlive));

        // The other's failure is its news too, and with no server left it leaves the cluster.
        java.util.UUID otherId = other.cluster().localNode().id();

        spiOf(other).simulateNodeFailure();
        await("c1 is without " + other.name(), 30_000, () -> {
            try {
                return c1.cluster().node(otherId) == null;
            }
            catch (RuntimeException disconnected) {
                return true;
            }
        });
        assertTrue("c1 saw " + watched.name() + " fail: " + seen,
            seen.stream().anyMatch(s -> s.startsWith("NODE_FAILED order=" + watchedOrder + " ")));
    }

    @Test(timeout = 180_000) public void aWatchThatFailsToBeSetIsSetAgain() throws Exception {
        Ignite s1 = start("s1");
        String s1Alive = root + "/alive/" + s1.cluster().localNode().id();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();

        // s2 sets its watch on s1's alive znode once as it joins; the next try, as s1 goes, fails as a lost
        // connection would.
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi().setZkFaultsForTest(new ZkFaults.Quiet() {
            @Override public Exception failWatch(String path) {
                if (path.equals(s1Alive) && calls.incrementAndGet() > 1 && failed.compareAndSet(0, 1))
                    return new KeeperException.ConnectionLossException();

                return null;
            }
        })));
        Ignite s3 = start("s3");

        spiOf(s1).simulateNodeFailure();

        for (Ignite n : List.of(s2, s3))
            await(n.name() + " sees s1 fail", 30_000, () -> n.cluster().nodes().size() == 2);

        assertEquals("the fault was injected once", 1, failed.get());
        await("s2 coordinates", 10_000, () -> spiOf(s2).engine().coordinatorForTest() != null);

        Ignite s4 = start("s4");

        for (Ignite n : List.of(s2, s3, s4))
            await(n.name() + " sees s4", 30_000, () -> n.cluster().nodes().size() == 3);
    }

    /** @return The paths each session watches, by session id in hex, from the server's {@code wchp}. */
    private Map<String, Set<String>> watchesBySession() throws Exception {
        Map<String, Set<String>> out = new HashMap<>();
        String path = null;

        for (String line : fourLetters("wchp").split("\n")) {
            if (line.isEmpty())
                continue;

            if (!line.startsWith("\t"))
                path = line.trim();
            else
                out.computeIfAbsent(line.trim(), k -> new HashSet<>()).add(path);
        }

        return out;
    }

    private String fourLetters(String cmd) throws Exception {
        try (Socket s = new Socket("127.0.0.1", zk.getPort())) {
            OutputStream out = s.getOutputStream();

            out.write(cmd.getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = s.getInputStream();

            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
