package io.zkion.discovery;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.resolve.Rounds;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.lang.IgniteProductVersion;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Rounds stay off while a node of an older release (0.1.0, which has no rounds) is in the topology, and come back once
 * it leaves, on real nodes: such a node would otherwise reach nobody in every round of a rolling upgrade and be
 * removed. The older node is played by a node of this build without the rounds attribute, which is all the others see
 * of 0.1.0 here; the real 0.1.0 is the testbed's scenario j.
 */
public class RoundsOffInClusterTest extends MatrixTestSupport {
    /** Whether the next node started lacks the rounds attribute. */
    private volatile boolean nextIsOlder;

    @Override protected ZkIonDiscoverySpi spi() {
        return nextIsOlder ? configured(new WithoutRoundsSpi()) : super.spi();
    }

    /** A call with an older node in the topology: no round, the peer stays; once that node is gone, a round decides. */
    @Test(timeout = 180_000) public void roundsStayOffUntilTheOlderNodeLeaves() throws Exception {
        ErrorLog log2 = new ErrorLog();
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setGridLogger(log2));
        Ignite old = startOlder("old");
        UUID oldId = old.cluster().localNode().id();

        MatrixCommunicationSpi.cut("s1", "s2");
        await("s2 has the older node", 30_000, () -> s2.cluster().nodes().size() == 3);

        assertNull("the call returned: the peer stays", resolve(s2, s1).get(60, TimeUnit.SECONDS));
        assertTrue(log2.messages.toString(),
            log2.has("Not resolving the communication failure", oldId.toString(), "without communication failure rounds"));
        assertEquals(0L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        assertEquals(3, s1.cluster().nodes().size());
        awaitRoundOver();

        Ignition.stop(old.name(), true);
        await("the older node gone", 30_000, () -> s1.cluster().nodes().size() == 2);

        // Two servers that cannot reach each other: Ignite's default resolver keeps the group it finds first, from the
        // oldest node, so s1 (the coordinator) stays and s2, the caller, is removed. The call returns: its peer stays.
        CompletableFuture<Throwable> call = resolve(s2, s1);

        await("s2 removed", 90_000, () -> !running(s2));
        assertNull("the call returned: its peer s1 stays", call.get(90, TimeUnit.SECONDS));
        assertTrue("s1 stays", running(s1));
        await("s1 alone", 30_000, () -> s1.cluster().nodes().size() == 1);
        assertEquals(1L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        awaitRoundOver();
    }

    /**
     * A call in ZooKeeper while an older node is in the topology (as when a node asked just before that node joined):
     * the coordinator opens no round and deletes the call, naming the node.
     */
    @Test(timeout = 120_000) public void theCoordinatorDeletesACallWhileAnOlderNodeIsIn() throws Exception {
        ErrorLog log1 = new ErrorLog();
        Ignite s1 = start(config("s1", false).setGridLogger(log1));
        Ignite s2 = start("s2");
        Ignite old = startOlder("old");
        UUID oldId = old.cluster().localNode().id();

        await("the coordinator has the older node", 30_000, () -> s1.cluster().nodes().size() == 3);

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            c.create().creatingParentsIfNeeded().forPath(new ZkPaths(root).commAsk(s2.cluster().localNode().id()));
        }

        await("the coordinator refused the call", 30_000,
            () -> log1.has("Not opening the communication failure round 1 node(s) asked for", oldId.toString()));
        awaitRoundOver(); // comm/ empty: the call is deleted.
        assertEquals(0L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        assertEquals(3, s1.cluster().nodes().size());
        assertEquals(3, s2.cluster().nodes().size());
    }

    private Ignite startOlder(String name) {
        nextIsOlder = true;

        try {
            return start(name);
        }
        finally {
            nextIsOlder = false;
        }
    }

    /** This build's SPI with the rounds attribute taken away, as a node of 0.1.0 shows itself to the others. */
    private static final class WithoutRoundsSpi extends ZkIonDiscoverySpi {
        @Override public void setNodeAttributes(Map<String, Object> attrs, IgniteProductVersion ver) {
            super.setNodeAttributes(attrs, ver);

            try {
                Field f = AbstractZkIonDiscoverySpi.class.getDeclaredField("locNodeAttrs");

                f.setAccessible(true);

                @SuppressWarnings("unchecked")
                Map<String, Object> m = new HashMap<>((Map<String, Object>)f.get(this));

                m.remove(Rounds.CAPABILITY_ATTR);
                f.set(this, m);
            }
            catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
