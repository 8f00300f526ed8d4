package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.configuration.CacheConfiguration;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The answers to a batch of joins write the part of Ignite's common data that is alike once, beside them (issue 23):
 * every joiner still starts with all of it, though the sweep runs all along, and the shared znode is swept once the
 * batch's entry is trimmed.
 */
public class SharedCommonDataTest extends ZkIonTestSupport {
    private static final String CACHE = "shared-common-test";

    /** Sweeps every half second: the shared znode must stand while its batch's entry does, and go after. */
    @Before public void sweepOften() {
        System.setProperty("zkion.sweepIntervalMs", "500");
    }

    @After public void sweepAsUsual() {
        System.clearProperty("zkion.sweepIntervalMs");
    }

    @Test(timeout = 180_000) public void aBatchOfJoinersGetsTheCommonDataWholeThroughOneSharedZnode() throws Exception {
        Ignite s1 = start(config("s1", false).setCacheConfiguration(new CacheConfiguration<>(CACHE)));
        List<String> shared = new CopyOnWriteArrayList<>();

        joinInOnePass(s1, List.of(config("a", false), config("b", false), config("c", false)),
            c -> spiOf(s1).engine().zkFaultsForTest(new ZkFaults.Quiet() {
                @Override public boolean failBeforeCommit(List<CuratorOp> ops) {
                    for (CuratorOp op : ops) {
                        String p = op.getTypeAndPath().getForPath();

                        // Created in the batch's multi; the trim's delete may follow soon after.
                        if (op.getTypeAndPath().getType() == OperationType.CREATE && p.startsWith(root + "/joined/shared-"))
                            shared.add(p);
                    }

                    return false;
                }
            }));

        assertEquals("one znode of shared common data for the batch of three: " + shared, 1, shared.size());

        await("four servers everywhere", 60_000, () -> nodes.stream().allMatch(n -> n.cluster().nodes().size() == 4));

        // The cache's configuration reaches a joiner in the common data: with a part of it missing, it would not.
        for (Ignite n : nodes)
            assertTrue(n.name() + " knows the cache", n.cacheNames().contains(CACHE));

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            await("the shared znode swept once its batch is trimmed", 60_000, () -> {
                try {
                    return c.checkExists().forPath(shared.get(0)) == null;
                }
                catch (Exception e) {
                    return false;
                }
            });
        }
    }
}
