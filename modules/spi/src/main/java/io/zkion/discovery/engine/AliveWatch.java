package io.zkion.discovery.engine;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The coordinator's watch on the names under alive/: a node came or went, so the next cycle lists alive/ again.
 * <p>
 * Recursive, though only the names matter here: the coordinator's cache of alive/ holds a recursive watch on the same
 * path, and ZooKeeper 3.8 keeps one watch mode per connection and path, the last one added. A plain persistent watch
 * re-added after the cache's (both are re-added after every reconnection, in no set order) left the cache deaf to
 * acks until the next reconnection (WatchModeFactsTest); two recursive watches cannot displace each other.
 */
final class AliveWatch {
    private final CuratorFramework client;
    private final String alive;
    private final Runnable namesChanged;

    /** Started and closed on the discovery thread only. */
    private PersistentWatcher watcher;

    /** @param namesChanged Told of a node created or deleted under {@code alive}, or that some may have been missed. */
    AliveWatch(CuratorFramework client, String alive, Runnable namesChanged) {
        this.client = client;
        this.alive = alive;
        this.namesChanged = namesChanged;
    }

    boolean started() {
        return watcher != null;
    }

    void start() {
        if (watcher != null)
            return;

        watcher = new PersistentWatcher(client, alive, true);
        watcher.getListenable().addListener(e -> {
            // An ack changes a node's data, not the names: the cache hears those, and schedules its own cycle.
            if (e.getType() != EventType.NodeDataChanged)
                namesChanged.run();
        });
        // Added anew (at start, after a reconnection): what came or went meanwhile is listed, not announced.
        watcher.getResetListenable().addListener(namesChanged::run);
        watcher.start();
    }

    /** Stops reporting. ZooKeeper 3.8 keeps a persistent watch until the session ends (it cannot remove one). */
    void close() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }
}
