package io.zkion.discovery.zk;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.internal.TestSeam;
import org.apache.curator.framework.CuratorFramework;
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
