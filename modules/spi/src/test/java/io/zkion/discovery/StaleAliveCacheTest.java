package io.zkion.discovery;

import java.util.List;
import io.zkion.discovery.coordinator.Coordinator;
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

}
