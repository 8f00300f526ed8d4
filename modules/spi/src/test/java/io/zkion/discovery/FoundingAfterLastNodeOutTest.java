package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.zookeeper.ZooDefs;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/**
 * The last node of a cluster, stopping, removes log/ and custom/ (their sequence counters go with them), and every node
 * makes them at start. A node that made the layout just before that removal found its founding multi failing on the
 * missing log/, took it for its request gone with its session, and asked again, forever: it must make them again.
 */
public class FoundingAfterLastNodeOutTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aNodeWhoseLayoutTheLastNodeOutRemovedStillFounds() throws Exception {
        AtomicInteger removed = new AtomicInteger();

        try (CuratorFramework other = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            other.start();

            // Between the layout and the founding, as the last node out of the cluster before does at its stop.
            ZkIonDiscoverySpi spi = spi().setJoinTimeout(20_000).setZkFaultsForTest(new ZkFaults.Quiet() {
                @Override public Exception refuseCommit(List<CuratorOp> ops) {
                    if (createsUnder(ops, root + "/log/") && removed.get() == 0) {
                        try {
                            other.delete().forPath(root + "/log");
                            other.delete().forPath(root + "/custom");
                            removed.incrementAndGet();
                        }
                        catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }

                    return null;
                }
            });

            Ignite s1 = start(config("s1", false).setDiscoverySpi(spi));

            assertEquals("removed once", 1, removed.get());
            assertEquals(1, s1.cluster().localNode().order());
            assertNotNull(other.checkExists().forPath(root + "/custom"));

            Ignite s2 = start("s2");

            assertEquals(2, s2.cluster().nodes().size());
        }
    }

    private static boolean createsUnder(List<CuratorOp> ops, String dir) {
        return ops.stream().anyMatch(o -> o.get().getType() == ZooDefs.OpCode.create && o.get().getPath().startsWith(dir));
    }
}
