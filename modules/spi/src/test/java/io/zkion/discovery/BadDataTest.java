package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.apache.ignite.logger.NullLogger;
import org.apache.zookeeper.CreateMode;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

/** Data planted by a foreign ZooKeeper client: a clear error naming the znode, never a silent divergence. */
public class BadDataTest extends ZkIonTestSupport {
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @Test(timeout = 120_000) public void corruptLogEntryIsReportedByName() throws Exception {
        Ignite s1 = start(config("s1", false).setGridLogger(new Capturing()));
        Ignite s2 = start(config("s2", false).setGridLogger(new Capturing()));

        String planted;

        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            planted = foreign.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(root + "/log/e-", "ZK\u0001\u0001this is not zlib".getBytes());
        }

        String path = planted;

        await("an error naming " + path, 30_000, () -> errors.stream().anyMatch(m -> m.contains(path)));
        assertTrue(errors.toString(), errors.stream().anyMatch(m -> m.contains("Corrupt event log entry")));

        // The nodes did not carry on with a view that silently skipped an entry: they left the cluster.
        await("nodes stopped", 60_000, () -> Ignition.state(s1.name()) != IgniteState.STARTED
            && Ignition.state(s2.name()) != IgniteState.STARTED);
    }

    @Test(timeout = 60_000) public void stockLayoutUnderTheRootIsRefused() throws Exception {
        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            foreign.create().creatingParentsIfNeeded().forPath(root + "/e");
        }

        try {
            start("s1");
            org.junit.Assert.fail("Started on a root holding the stock SPI's znodes");
        }
        catch (Exception e) {
            assertTrue(JoinTest.messages(e), JoinTest.messages(e).contains("stock ZookeeperDiscoverySpi"));
        }
    }

    /** Keeps errors; prints warnings and errors to the test output. */
    private final class Capturing extends NullLogger {
        @Override public void warning(String msg, Throwable e) {
            System.out.println("WARN " + msg);
        }

        @Override public void error(String msg, Throwable e) {
            System.out.println("ERROR " + msg);
            errors.add(msg);
        }

        @Override public void error(String marker, String msg, Throwable e) {
            errors.add(msg);
        }

        @Override public IgniteLogger getLogger(Object ctgr) {
            return this;
        }
    }
}
