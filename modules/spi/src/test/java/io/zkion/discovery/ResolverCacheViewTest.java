package io.zkion.discovery;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * What a resolver learns of the caches (issue 21) when the view is hard to get right: on a coordinator that took
 * the role over from a stopped one, and while a joined node has not received its partitions (rebalancing is manual
 * and never started). The context must give the caches as this coordinator knows them, and as owners only the nodes
 * that hold the data, not the ones the affinity function wants.
 */
@SuppressWarnings({"unchecked", "deprecation"})
public class ResolverCacheViewTest extends MatrixTestSupport {
    private static final int PARTS = 32;

    /** What the resolver saw, by name; it removes nobody. */
    private static final Map<String, Object> SEEN = new ConcurrentHashMap<>();

    @Before public void reset() {
        SEEN.clear();
    }

    @Override protected CommunicationFailureResolver resolver() {
        return ctx -> {
            SEEN.put("nodes", ctx.topologySnapshot());
            SEEN.put("caches", new HashSet<>(ctx.startedCaches().keySet()));
            SEEN.put("affinity", ctx.cacheAffinity("c"));
            SEEN.put("owners", ctx.cachePartitionOwners("c"));
        };
    }

    @Test(timeout = 180_000) public void aNewCoordinatorGivesTheOwnersThatHoldTheDataWhileRebalanceIsBlocked()
        throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");

        // Manual rebalancing, never started: a node that joins later is in the affinity but owns nothing.
        s1.getOrCreateCache(new CacheConfiguration<Integer, Integer>("c").setBackups(1).setRebalanceDelay(-1)
            .setAffinity(new RendezvousAffinityFunction(false, PARTS))).put(1, 1);

        s1.close(); // s2 coordinates from now on.

        Ignite s4 = start("s4");
        ClusterNode n4 = s4.cluster().localNode();

        await("s4 in every view", 30_000, () -> s2.cluster().nodes().size() == 3 && s3.cluster().nodes().size() == 3);

        MatrixCommunicationSpi.cut("s2", "s3");

        Throwable t = resolve(s2, s3).get(60, TimeUnit.SECONDS);

        assertNull("the resolver removed nobody: " + t, t);

        List<ClusterNode> nodes = (List<ClusterNode>)SEEN.get("nodes");

        assertEquals("the round's topology: s2, s3 and s4", 3, nodes.size());
        assertTrue("the cache is among the started ones", ((Set<String>)SEEN.get("caches")).contains("c"));

        List<List<ClusterNode>> aff = (List<List<ClusterNode>>)SEEN.get("affinity");
        List<List<ClusterNode>> owners = (List<List<ClusterNode>>)SEEN.get("owners");

        assertEquals(PARTS, aff.size());
        assertEquals(PARTS, owners.size());

        boolean s4Wanted = false;

        for (int p = 0; p < PARTS; p++) {
            assertFalse("partition " + p + " has an owner", owners.get(p).isEmpty());

            for (ClusterNode o : owners.get(p)) {
                assertFalse("partition " + p + ": s4 received no data, yet is an owner", o.id().equals(n4.id()));
                assertTrue("partition " + p + ": owner " + o.order() + " is in the round's topology", nodes.contains(o));
            }

            for (ClusterNode a : aff.get(p))
                s4Wanted |= a.id().equals(n4.id());
        }

        // Affinity and owners differ: owners are who holds the data, not the assignment given twice.
        assertTrue("the current assignment gives s4 some partition", s4Wanted);
        assertEquals(3, s2.cluster().nodes().size());
    }
}
