package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** 3 servers and a client form one cluster, caches come and go, data is readable from everywhere. */
public class ClusterFormationTest extends ZkIonTestSupport {
    @Test(timeout = 240_000) public void serversAndClientFormOneCluster() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite c = startClient("c1");

        for (Ignite n : nodes)
            await(n.name() + " sees 4 nodes", 30_000, () -> n.cluster().nodes().size() == 4);

        // Orders are the join order, the same on every node, and the join topology version of each node.
        List<Long> orders = s1.cluster().nodes().stream().map(ClusterNode::order).sorted().collect(Collectors.toList());

        assertEquals(List.of(1L, 2L, 3L, 4L), orders);

        for (Ignite n : nodes) {
            assertEquals(n.name(), 4L, n.cluster().topologyVersion());
            assertEquals(n.name(), s1.cluster().localNode().id(),
                n.cluster().forServers().forOldest().node().id());
        }

        assertTrue(c.cluster().localNode().isClient());

        IgniteCache<Integer, String> cache = s1.getOrCreateCache(new CacheConfiguration<Integer, String>("data").setBackups(1));

        for (int i = 0; i < 1000; i++)
            cache.put(i, "v" + i);

        for (int i = 0; i < 50; i++)
            c.getOrCreateCache(new CacheConfiguration<>("tmp-" + i).setBackups(1)
                .setAffinity(new RendezvousAffinityFunction(false, 32)));

        for (Ignite n : nodes)
            assertTrue(n.name(), n.cacheNames().containsAll(List.of("tmp-0", "tmp-49", "data")));

        for (int i = 0; i < 50; i++)
            s2.destroyCache("tmp-" + i);

        for (Ignite n : nodes)
            assertFalse(n.name(), n.cacheNames().contains("tmp-7"));

        IgniteCache<Integer, String> fromClient = c.cache("data");

        for (int i = 0; i < 1000; i++)
            assertEquals("v" + i, fromClient.get(i));

        assertEquals(1000, s3.cache("data").size());
    }
}
