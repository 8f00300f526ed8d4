package io.zkion.discovery.config;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Makes Curator's ZooKeeper handles, and passes Curator the events of its newest handle only.
 * <p>
 * On an expiry, Curator opens its next handle while it still handles the old one's Expired event, on the old handle's
 * event thread. The old handle's last event, Closed, can be queued to Curator before that: its send thread queues it
 * as it stops. If the new handle connected in between, Curator takes that late Closed for news of its connection,
 * counts the live connection as down, and keeps it so until the next event, which may not come: every call then waits
 * out the connection timeout before it runs. A client's rejoin so took over a minute (ClientReconnectTest, about one
 * expiry in 80 on 2 busy cores). An event of a handle Curator replaced tells nothing about the connection Curator has.
 */
final class CurrentHandleEvents implements ZookeeperFactory {
    /** How many handles were made; a handle's events pass while it is the last one made. */
    private final AtomicLong made = new AtomicLong();

    @Override public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
        boolean canBeReadOnly) throws Exception {
        return new ZooKeeper(connectString, sessionTimeout, gate(watcher), canBeReadOnly);
    }

    @Override public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
        boolean canBeReadOnly, ZKClientConfig cfg) throws Exception {
        if (cfg == null)
            return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly);

        // As Curator's own factory makes it with a configuration.
        return new ZooKeeperAdmin(connectString, sessionTimeout, gate(watcher), canBeReadOnly, cfg);
    }

    /** @return The watcher for the next handle: {@code curator}'s while no newer handle is made. */
    Watcher gate(Watcher curator) {
        long mine = made.incrementAndGet();

        return e -> {
            if (made.get() == mine)
                curator.process(e);
        };
    }
}
