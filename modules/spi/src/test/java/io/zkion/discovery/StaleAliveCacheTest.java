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
}
