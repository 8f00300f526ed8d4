package io.zkion.discovery;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.cluster.ClusterNode;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * In ion-2 a joiner writes itself once, to {@code nodes/<id>}, and join events and snapshots refer to it. A node
 * that reads only ion-1 (as a previous release does) still joins, gets every node inline, and reads the joins that
 * happen while it is there; once it is gone the cluster refers again. Data znodes of nodes that left are removed.
 */
public class NodeDataByReferenceTest extends ZkIonTestSupport {
    @Test(timeout = 240_000) public void ion1NodeJoinsAndLeavesAClusterThatRefers() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            assertEquals("Both wrote themselves once", ids(s1, s2), dataZnodes(zkc));

            // A node of the previous release: the cluster writes ion-1 while it is in, and it gets s1 and s2 inline.
            Ignite old = start(config("old", false).setDiscoverySpi(spi().setEventFormats("ion-1")));

            assertEquals(3, old.cluster().nodes().size());

            // Joins while it is there are written inline, so it can read them.
            Ignite s4 = start("s4");

            for (Ignite n : List.of(s1, s2, old, s4))
                await(n.name() + " sees 4", 30_000, () -> n.cluster().nodes().size() == 4);

            assertEquals("s4 joined in ion-1: no data znode", ids(s1, s2), dataZnodes(zkc));
            assertTrue(old.cacheNames().isEmpty());

            s1.getOrCreateCache("c1");
            await("old has c1", 10_000, () -> old.cacheNames().contains("c1"));

            Ignition.stop(old.name(), true);

            // A joiner writes by reference once the cluster writes ion-2 again: after the old node's exit is logged.
            for (Ignite n : List.of(s1, s2, s4))
                await(n.name() + " sees 3", 30_000, () -> n.cluster().nodes().size() == 3);

            Ignite s5 = start("s5");

            for (Ignite n : List.of(s1, s2, s4, s5))
                await(n.name() + " sees 4", 30_000, () -> n.cluster().nodes().size() == 4);

            assertTrue(s5.cacheNames().contains("c1"));
            assertEquals("s5 joined in ion-2 again", ids(s1, s2, s5), dataZnodes(zkc));

            // Every node holds the same nodes in the same order, with the same attributes, however it got them.
            for (Ignite n : List.of(s2, s4, s5)) {
                for (ClusterNode c : s1.cluster().nodes()) {
                    ClusterNode other = n.cluster().node(c.id());

                    assertEquals(c.order(), other.order());
                    assertEquals(c.attributes().keySet(), other.attributes().keySet());
                    assertEquals((Object)c.attribute("org.apache.ignite.ignite.name"), other.attribute("org.apache.ignite.ignite.name"));
                }
            }

            // A node that left: its data znode goes once every member is past its exit.
            Ignition.stop(s2.name(), true);
            await("s2's data znode removed", 30_000, () -> dataZnodes(zkc).equals(ids(s1, s5)));
        }
    }

    /**
     * The coordinator cannot read a joiner's data znode (as a coordinator of an older release cannot read a request
     * by reference): it refuses the request as unreadable, and the joiner asks once more with a whole one.
     */
    @Test(timeout = 120_000) public void joinerRefusedAsUnreadableAsksAgainWhole() throws Exception {
        Ignite s1 = start("s1");
        String s1Id = s1.cluster().localNode().id().toString();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);

        // A mutable message holds the coordinator's discovery thread in its listener: no join is handled meanwhile.
        ((org.apache.ignite.internal.IgniteEx)s1).context().discovery().setCustomEventListener(CustomMessageTest.Mutable.class,
            (topVer, snd, msg) -> {
                held.countDown();

                try {
                    release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        ((org.apache.ignite.internal.IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Mutable());
        // Only once the coordinator is held does s2 ask: else its join may be handled, by reference, before the
        // corruption below (CI saw that).
        assertTrue("the coordinator is held", held.await(30, java.util.concurrent.TimeUnit.SECONDS));

        java.util.concurrent.CompletableFuture<Ignite> s2 = java.util.concurrent.CompletableFuture.supplyAsync(() -> start("s2"));

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            await("s2's data znode", 30_000, () -> dataZnodes(zkc).size() == 2);

            String s2Id = dataZnodes(zkc).stream().filter(n -> !n.equals(s1Id)).findFirst().get();

            zkc.setData().forPath(root + "/nodes/" + s2Id, "ZK\u0001\u0001not zlib".getBytes());
            release.countDown();

            Ignite joined = s2.get(60, java.util.concurrent.TimeUnit.SECONDS);

            assertEquals(s2Id, joined.cluster().localNode().id().toString());
            await("2 nodes", 30_000, () -> s1.cluster().nodes().size() == 2 && joined.cluster().nodes().size() == 2);
            assertEquals("s2 joined with a whole request: no data znode", Set.of(s1Id), dataZnodes(zkc));
        }
        finally {
            release.countDown();
        }
    }

    private static Set<String> ids(Ignite... nodes) {
        Set<String> out = new TreeSet<>();

        for (Ignite n : nodes)
            out.add(n.cluster().localNode().id().toString());

        return out;
    }

    private Set<String> dataZnodes(CuratorFramework c) {
        try {
            return new TreeSet<>(c.getChildren().forPath(root + "/nodes"));
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

}
