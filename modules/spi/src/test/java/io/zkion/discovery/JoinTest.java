package io.zkion.discovery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteException;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.BinaryConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.events.EventType;
import org.apache.ignite.events.NodeValidationFailedEvent;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Concurrent joins, refused joins, and joins whose data is larger than a ZooKeeper request. */
public class JoinTest extends ZkIonTestSupport {
    @Test(timeout = 300_000) public void eightConcurrentNodesFormOneCluster() throws Exception {
        startConcurrently(8, "n");

        for (Ignite n : nodes)
            await(n.name() + " sees 8 nodes", 60_000, () -> n.cluster().nodes().size() == 8);

        Set<Long> orders = new HashSet<>();

        for (ClusterNode n : nodes.get(0).cluster().nodes())
            orders.add(n.order());

        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), orders);

        // Every node agrees on every node's order.
        for (Ignite n : nodes) {
            for (ClusterNode c : n.cluster().nodes())
                assertEquals(nodes.get(0).cluster().node(c.id()).order(), c.order());
        }
    }

    @Test(timeout = 120_000) public void refusedJoinFailsFastWithTheReason() throws Exception {
        Ignite s1 = start(config("s1", false).setIncludeEventTypes(EventType.EVT_NODE_VALIDATION_FAILED));
        List<String> validationFailed = new CopyOnWriteArrayList<>();

        // Ignite's listeners of this event wait on the coordinator, which validated the node.
        s1.events().localListen(e -> validationFailed.add(((NodeValidationFailedEvent)e).validationResult().message()),
            EventType.EVT_NODE_VALIDATION_FAILED);

        IgniteConfiguration bad = config("bad", false).setBinaryConfiguration(new BinaryConfiguration().setCompactFooter(false));
        long t0 = System.nanoTime();

        try {
            start(bad);
            fail("A node with another binary configuration joined");
        }
        catch (IgniteException e) {
            String all = messages(e);

            assertTrue(all, all.contains("binary configuration is not equal"));
        }

        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertTrue("Refusal took " + ms + " ms", ms < 15_000);
        assertEquals(1, nodes.get(0).cluster().nodes().size());
        await("EVT_NODE_VALIDATION_FAILED on the coordinator", 10_000, () -> validationFailed.size() == 1);
        assertTrue(validationFailed.toString(), validationFailed.get(0).toLowerCase().contains("binary"));
    }

    /** 3 MB of incompressible node attributes: the join request and join events go through parts znodes. */
    @Test(timeout = 180_000) public void joinDataOfSeveralMegabytes() throws Exception {
        start("s1");

        byte[] big = new byte[3 << 20];

        new java.util.Random(1).nextBytes(big);

        Ignite s2 = start(config("s2", false).setUserAttributes(java.util.Map.of("big", big)));
        Ignite s3 = start("s3");

        await("3 nodes", 30_000, () -> s3.cluster().nodes().size() == 3);

        byte[] seen = s3.cluster().node(s2.cluster().localNode().id()).attribute("big");

        assertTrue(java.util.Arrays.equals(big, seen));
    }

    static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();

        for (Throwable c = t; c != null; c = c.getCause())
            sb.append(c.getMessage()).append(" | ");

        return sb.toString();
    }
}
