package io.zkion.discovery.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The coordinator's watch on alive/'s names, added after its cache's watch on the same path, as a reconnection may
 * re-add them: the cache must still hear every ack (ZooKeeper 3.8 keeps one mode per path, the last added:
 * WatchModeFactsTest), and the watch reports names that come and go, not acks.
 */
public class AliveWatchTest {
    @Test(timeout = 60_000) public void addedAfterTheCoordinatorsCacheItLeavesTheCacheHearingAcks() throws Exception {
        try (TestingServer zk = new TestingServer(true);
             CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            c.blockUntilConnected();
            c.create().creatingParentsIfNeeded().forPath("/alive/x", new byte[1]);

            CountDownLatch loaded = new CountDownLatch(1);
            Semaphore cacheHeard = new Semaphore(0);
            Semaphore names = new Semaphore(0);
            AliveWatch w = new AliveWatch(c, "/alive", names::release);

            try (CuratorCache cache = CuratorCache.build(c, "/alive")) {
                cache.listenable().addListener(CuratorCacheListener.builder()
                    .forChanges((before, after) -> cacheHeard.release()).forInitialized(loaded::countDown).build());
                cache.start();
                assertTrue(loaded.await(10, TimeUnit.SECONDS));

                w.start();
                assertTrue("the watch's add landed", names.tryAcquire(10, TimeUnit.SECONDS));

                c.setData().forPath("/alive/x", new byte[2]); // An ack.
                assertTrue("the cache heard the ack", cacheHeard.tryAcquire(10, TimeUnit.SECONDS));
                // The watch saw the same event first (one event thread): an ack is not news of the names.
                assertEquals(0, names.availablePermits());

                c.create().forPath("/alive/y");
                assertTrue("a node came", names.tryAcquire(10, TimeUnit.SECONDS));

                c.delete().forPath("/alive/x");
                assertTrue("a node went", names.tryAcquire(10, TimeUnit.SECONDS));
            }
            finally {
                w.close();
            }
        }
    }
}
