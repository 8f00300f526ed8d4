package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.coordinator.Coordinator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

/**
 * The coordinator keeps alive/ in a Curator cache, which can go stale: Curator only logs a background read that
 * failed. A stale cache must neither hold up a join nor make the coordinator fail live nodes. The test stops the
 * cache outright (closing it also empties it): from then on only the coordinator's own listing of alive/, its
 * direct reads and its periodic cycle tell it who is there.
 */
public class StaleAliveCacheTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aStaleCacheNeitherHoldsUpAJoinNorFailsLiveNodes() throws Exception {
        Ignite crd = start("crd");
        Ignite a = start("a");
        List<String> seen = record(crd);

        closeAliveCacheOf(crd);

        Ignite b = start("b");

        await("b in every node's topology", 30_000, () -> crd.cluster().nodes().size() == 3
            && a.cluster().nodes().size() == 3 && b.cluster().nodes().size() == 3);

        Ignition.stop(a.name(), true);
        nodes.remove(a);

        await("a gone from crd and b", 30_000, () -> crd.cluster().nodes().size() == 2 && b.cluster().nodes().size() == 2);

        assertTrue(seen.toString(), seen.contains("NODE_JOINED order=3 topVer=3"));
        assertTrue(seen.toString(), seen.contains("NODE_LEFT order=2 topVer=4"));
        assertTrue("A live node was failed: " + seen, seen.stream().noneMatch(s -> s.startsWith("NODE_FAILED")));
    }

    /**
     * The coordinator's cache deaf to alive/ (a plain persistent watch over its connection displaced the cache's, as
     * one re-added after a reconnection did in the chaos run): a server leaves, the coordinator learns it from its own
     * listing, and when it stops last the cluster's znodes go with it; the stale cache still named the departed server.
     */
    @Test(timeout = 120_000) public void aDeafCacheDoesNotKeepTheClusterAfterTheLastNodeStops() throws Exception {
        Ignite crd = start("crd");
        Ignite s2 = start("s2");

        spiOf(crd).engine().coordinatorForTest().deafenAliveCacheForTest();

        Ignition.stop(s2.name(), true);
        nodes.remove(s2);

        await("s2 gone from crd", 30_000, () -> crd.cluster().nodes().size() == 1);

        Ignition.stop(crd.name(), true);
        nodes.remove(crd);

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            List<String> left = new ArrayList<>();

            for (String child : zkc.getChildren().forPath(root)) {
                if (!zkc.getChildren().forPath(root + "/" + child).isEmpty() || child.equals("state"))
                    left.add(child);
            }

            assertTrue("Left behind after the last node stopped: " + left, left.isEmpty());
        }
    }

    private boolean logEmpty(CuratorFramework zkc) {
        try {
            return zkc.getChildren().forPath(root + "/log").isEmpty();
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void closeAliveCacheOf(Ignite n) {
        Coordinator crd = spiOf(n).engine().coordinatorForTest();

        if (crd == null)
            throw new AssertionError(n.name() + " is not the coordinator");

        crd.closeAliveCacheForTest();
    }

    /**
     * The cache holds every alive znode, but an ack that moved on since (seen in the chaos run after a ZooKeeper
     * leader change: every member had acked, and the coordinator trimmed nothing and logged no ack for as long as
     * nothing else changed). Frozen here: the coordinator reads a lagging ack directly once the oldest entry waits.
     */
    @Test(timeout = 120_000) public void aCacheThatMissedAnAckHoldsNoTrimForLong() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");
        List<List<String>> seen = new java.util.ArrayList<>();

        for (Ignite n : List.of(s1, s2, c1))
            seen.add(CustomMessageTest.pingsAndAcks(n));

        spiOf(s1).engine().coordinatorForTest().freezeAliveCacheForTest();
        ((org.apache.ignite.internal.IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p"));

        for (List<String> l : seen)
            await("every node got the ack", 30_000, () -> l.contains("ack p"));
    }

    /**
     * As above, with messages nobody awaits, which members ack only once the log stood still
     * ({@link io.zkion.discovery.internal.AckPolicy}): the coordinator reads the lagging acks directly after twice
     * that wait, so a frozen cache still lets the log be trimmed.
     */
    @Test(timeout = 120_000) public void aCacheThatMissedIdleAcksHoldsNoTrimForLong() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.apache.ignite.internal.managers.discovery.GridDiscoveryManager disco =
            ((org.apache.ignite.internal.IgniteEx)s2).context().discovery();

        disco.setCustomEventListener(LazyAckTest.Note.class, (topVer, snd, msg) -> seen.add(msg.tag));

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            // Nothing awaits an ack from here on: the start's messages with acks are trimmed.
            await("the start's entries trimmed", 60_000, () -> logEmpty(zkc));

            spiOf(s1).engine().coordinatorForTest().freezeAliveCacheForTest();

            for (int i = 0; i < 5; i++)
                disco.sendCustomEvent(new LazyAckTest.Note("n" + i));

            await("s2 got the notes", 30_000, () -> seen.contains("n4"));
            await("the notes trimmed", 60_000, () -> logEmpty(zkc));
        }
    }

}
