package io.zkion.discovery;

import java.util.Arrays;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/**
 * What the gap check rests on, pinned on the ZooKeeper server the tests run: the numbers of sequential children do
 * not move on deletes, and a failed multi consumes none. So {@code log/e-<seq>} numbers have no holes, and a hole a
 * node finds is an entry it missed.
 */
public class LogSequenceFactsTest {
    private TestingServer zk;
    private CuratorFramework client;

    @Before public void start() throws Exception {
        zk = new TestingServer(true);
        client = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
        client.start();
        client.blockUntilConnected();
        client.create().forPath("/log");
    }

    @After public void stop() throws Exception {
        client.close();
        zk.close();
    }

    @Test public void deletesDoNotMoveTheSequence() throws Exception {
        assertEquals(0, created());
        assertEquals(1, created());

        client.delete().forPath("/log/e-0000000000");
        client.delete().forPath("/log/e-0000000001");
        Thread.sleep(100); // Every change applied, none outstanding: the server numbers from its tree.

        assertEquals(2, created());
    }

    @Test public void aFailedMultiConsumesNoNumber() throws Exception {
        assertEquals(0, created());

        try {
            client.transaction().forOperations(Arrays.asList(
                client.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath("/log/e-"),
                client.transactionOp().check().withVersion(42).forPath("/log")));
            fail("The check was to fail the multi");
        }
        catch (KeeperException.BadVersionException expected) {
            // The multi fails as a whole.
        }

        assertEquals(1, client.getChildren().forPath("/log").size());
        assertEquals(1, created());
    }

    private long created() throws Exception {
        String path = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath("/log/e-");

        return ZkPaths.sequence(path);
    }
}
