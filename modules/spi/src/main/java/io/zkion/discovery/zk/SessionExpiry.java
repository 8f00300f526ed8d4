package io.zkion.discovery.zk;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.internal.TestSeam;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Ends a client's session on the server, as an expiry does: its ephemeral znodes go at once, and the client learns of
 * it when it next talks to the server (Curator then retries in a new session). ZooKeeper's own
 * {@code injectSessionExpiration} acts on the client alone, and the server keeps the ephemerals until the session
 * times out.
 */
@TestSeam
public final class SessionExpiry {
    private SessionExpiry() {
    }

    /**
     * Tells {@code client} its session expired, as ZooKeeper's client does when it reconnects after a pause past the
     * session timeout; but the server keeps the session (and its ephemerals) until it times out there. ZooKeeper's
     * client reports a real expiry only on a reconnection, so always after the Disconnected of the connection it lost;
     * {@code injectSessionExpiration} alone reports it on a live connection. Curator then starts its new connection
     * while it still handles the expiry, and if that connection comes up first, Curator's handling of the expiry marks
     * it down afterwards: every call then waits out the connection timeout before it runs (6 s a call in the tests),
     * and a client's rejoin took over a minute (docs/tests.md, "Flakes").
     */
    public static void onClient(CuratorFramework client) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();

        // Both go to the same event thread, in this order, as on a real expiry.
        zk.getTestable().queueEvent(new WatchedEvent(Watcher.Event.EventType.None,
            Watcher.Event.KeeperState.Disconnected, null));
        zk.getTestable().injectSessionExpiration();
    }

    /** Closes {@code client}'s session from a second handle on the same session. */
    public static void onServer(CuratorFramework client) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(client.getZookeeperClient().getCurrentConnectionString(), zk.getSessionTimeout(),
            e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected)
                    connected.countDown();
            }, zk.getSessionId(), zk.getSessionPasswd());

        try {
            if (!connected.await(zk.getSessionTimeout(), TimeUnit.MILLISECONDS))
                throw new IllegalStateException("Could not attach to session 0x" + Long.toHexString(zk.getSessionId()));
        }
        finally {
            twin.close(); // Closes the session itself, not just this handle.
        }
    }
}
