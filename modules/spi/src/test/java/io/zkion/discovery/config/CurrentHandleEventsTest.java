package io.zkion.discovery.config;

import io.zkion.discovery.zk.SessionExpiry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/** Curator hears the connection events of its newest ZooKeeper handle only. */
public class CurrentHandleEventsTest {
    /**
     * The fault: the replaced handle's Closed, queued to Curator as that handle stopped, reaches Curator after the new
     * handle connected. Curator would count its live connection as down (each call then waits out the connection
     * timeout first, until some other event comes).
     */
    @Test public void aReplacedHandlesLateEventIsNotCuratorsNews() {
        CurrentHandleEvents factory = new CurrentHandleEvents();
        List<KeeperState> curatorHeard = new CopyOnWriteArrayList<>();
        org.apache.zookeeper.Watcher curator = e -> curatorHeard.add(e.getState());

        org.apache.zookeeper.Watcher first = factory.gate(curator);

        first.process(event(KeeperState.SyncConnected));
        first.process(event(KeeperState.Expired)); // Curator makes its next handle while it handles this.

        org.apache.zookeeper.Watcher second = factory.gate(curator);

        second.process(event(KeeperState.SyncConnected));
        first.process(event(KeeperState.Closed)); // Late: the old handle's last event.

        assertEquals(List.of(KeeperState.SyncConnected, KeeperState.Expired, KeeperState.SyncConnected), curatorHeard);
    }

    /** Curator with this factory, a client configuration as the SPI passes one, through an expiry. */
    @Test(timeout = 60_000) public void curatorCarriesOnInANewSessionAfterAnExpiry() throws Exception {
        try (TestingServer zk = new TestingServer(true);
             CuratorFramework c = CuratorFrameworkFactory.builder()
                 .connectString(zk.getConnectString())
                 .sessionTimeoutMs(6_000)
                 .connectionTimeoutMs(6_000)
                 .retryPolicy(new RetryOneTime(100))
                 .zkClientConfig(new ZKClientConfig())
                 .zookeeperFactory(new CurrentHandleEvents())
                 .build()) {
            c.start();
            assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));

            long before = c.getZookeeperClient().getZooKeeper().getSessionId();

            c.create().forPath("/before");
            SessionExpiry.onClient(c);

            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);

            while (c.getZookeeperClient().getZooKeeper().getSessionId() == before
                || !c.getZookeeperClient().isConnected()) {
                assertTrue("Curator connected in a new session", System.nanoTime() < end);
                Thread.sleep(20);
            }

            assertNotEquals(before, c.getZookeeperClient().getZooKeeper().getSessionId());
            c.create().forPath("/after");
            assertEquals(2, c.getChildren().forPath("/").stream().filter(n -> n.startsWith("before")
                || n.startsWith("after")).count());
        }
    }

    private static WatchedEvent event(KeeperState s) {
        return new WatchedEvent(EventType.None, s, null);
    }
}
