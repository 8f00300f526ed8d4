package io.zkion.discovery;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A fact of ZooKeeper 3.8 that the coordinator's two watches on {@code alive/} depend on: the server keeps one watch
 * mode per connection and path, the last one added. A non-recursive persistent watch (the log watch's) added after
 * the recursive one (the coordinator's cache's) makes the cache deaf to its children's changes, until it is added
 * again. Both are re-added after each reconnection, in no set order: so the coordinator's own watch on alive/ is
 * recursive too ({@code AliveWatch}, AliveWatchTest), and two recursive watches cannot displace each other (the
 * ChaosRunTest failures of seeds 1795645524036 and 1795648796117, docs/tests.md).
 */
public class WatchModeFactsTest {
    /** @return Whether the cache heard a child's data change, the plain persistent watch added last or first. */
    private static boolean cacheHearsAChild(boolean plainLast) throws Exception {
        try (TestingServer zk = new TestingServer(true);
             CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            c.blockUntilConnected();
            c.create().creatingParentsIfNeeded().forPath("/alive/x", new byte[1]);

            CountDownLatch changed = new CountDownLatch(1);
            CountDownLatch loaded = new CountDownLatch(1);
            CountDownLatch plainAdded = new CountDownLatch(1);
            PersistentWatcher plain = new PersistentWatcher(c, "/alive", false);

            plain.getResetListenable().addListener(plainAdded::countDown); // Its add landed.

            try (CuratorCache cache = CuratorCache.build(c, "/alive")) {
                cache.listenable().addListener(CuratorCacheListener.builder()
                    .forChanges((before, after) -> changed.countDown()).forInitialized(loaded::countDown).build());

                if (!plainLast)
                    plain.start();

                cache.start();
                assertTrue(loaded.await(10, TimeUnit.SECONDS));

                if (plainLast)
                    plain.start();

                assertTrue(plainAdded.await(10, TimeUnit.SECONDS));
                c.setData().forPath("/alive/x", new byte[2]);

                return changed.await(3, TimeUnit.SECONDS);
            }
            finally {
                plain.close();
            }
        }
    }

    @Test(timeout = 60_000) public void theWatchAddedLastOnAPathDecidesItsMode() throws Exception {
        assertTrue("recursive added last: the cache hears its children", cacheHearsAChild(false));
        assertFalse("plain added last: the cache is deaf to its children", cacheHearsAChild(true));
    }
}
