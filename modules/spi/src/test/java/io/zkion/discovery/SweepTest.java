package io.zkion.discovery;

import java.util.Arrays;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/**
 * What nobody will read is swept, so that ZooKeeper's data stays bounded: an answer to a joiner that died, a left/
 * marker of a node no longer there, a part no manifest names, the common data a batch of joins shared once its entry
 * is trimmed (named here for a node that is in the cluster). Parts that a node's data needs stay.
 */
public class SweepTest extends ZkIonTestSupport {
    @Before public void sweepOften() {
        System.setProperty("zkion.sweepIntervalMs", "500");
    }

    @After public void sweepAsUsual() {
        System.clearProperty("zkion.sweepIntervalMs");
    }

    @Test(timeout = 120_000) public void whatNobodyReadsIsSweptAndWhatANodeNeedsStays() throws Exception {
        Ignite s1 = start("s1");
        // Random, so it stays large compressed: over a quarter of the request limit, its data znode goes to parts.
        StringBuilder big = new StringBuilder();
        java.util.Random rnd = new java.util.Random(1);

        while (big.length() < 1_200_000)
            big.append(Long.toHexString(rnd.nextLong()));

        Ignite s2 = start(config("s2", false).setUserAttributes(java.util.Collections.singletonMap("big", big.toString()))
            .setDiscoverySpi(spi()));

        String gone = UUID.randomUUID().toString();
        // The common data of a batch of joins whose entry is trimmed, its own trim's delete missed.
        String[] garbage = {root + "/joined/" + gone, root + "/left/" + gone, root + "/parts/" + UUID.randomUUID() + "-0",
            root + "/joined/shared-" + s2.cluster().localNode().id()};

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            await("parts in use by s2's data", 10_000, () -> children(zkc, root + "/parts") > 0);

            int inUse = zkc.getChildren().forPath(root + "/parts").size();

            for (String path : garbage)
                zkc.create().forPath(path, new byte[] {1});

            await("the garbage swept", 30_000, () -> Arrays.stream(garbage).noneMatch(p -> exists(zkc, p)));

            assertEquals("parts in use", inUse, zkc.getChildren().forPath(root + "/parts").size());
        }

        // A node joining now reads s2 from its data znode, parts and all.
        Ignite s3 = start("s3");

        assertNotNull(s3.cluster().node(s2.cluster().localNode().id()).attribute("big"));
        assertEquals(3, s1.cluster().nodes().size());
    }

    private static int children(CuratorFramework zkc, String path) {
        try {
            return zkc.getChildren().forPath(path).size();
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static boolean exists(CuratorFramework zkc, String path) {
        try {
            return zkc.checkExists().forPath(path) != null;
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
