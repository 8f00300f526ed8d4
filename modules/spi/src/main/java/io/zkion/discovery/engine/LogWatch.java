package io.zkion.discovery.engine;

import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.zk.ZkPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.zookeeper.Watcher;

/**
 * The watches on log/ and, while this node coordinates, on alive/ (the others watch one alive znode:
 * {@link ElderWatch}), and what they reported since the last cycle. Each report schedules a cycle; the cycle takes
 * what was reported.
 */
final class LogWatch {
    private final CuratorFramework client;
    private final ZkPaths paths;
    private final DiscoveryLoop loop;

    /**
     * What changed since the last cycle, as the watches report it: a cycle lists only what changed, which
     * saves ZooKeeper round trips on every event. Cleared before listing, so news that arrives meanwhile
     * sets it again and schedules another cycle.
     */
    private volatile boolean logDirty = true;

    /** Log entries the watch announced created or deleted, by name, not yet handled by a cycle. */
    private final Queue<String> logCreated = new ConcurrentLinkedQueue<>();
    private final Queue<String> logDeleted = new ConcurrentLinkedQueue<>();
    private volatile boolean aliveDirty = true;
    private final ElderWatch elder;
    private final AliveWatch aliveWatch;

    /** Started and closed on the discovery thread only. */
    private PersistentWatcher logWatch;

    LogWatch(EngineContext ctx, DiscoveryLoop loop) {
        this.client = ctx.client();
        this.paths = ctx.paths();
        this.loop = loop;
        this.elder = new ElderWatch(ctx, loop);
        this.aliveWatch = new AliveWatch(client, paths.alive, () -> {
            aliveDirty = true;
            loop.trigger();
        });
    }

    /** Starts the watches anew, with everything marked changed. */
    void start() {
        close();
        markAllDirty();

        // Recursive, so that each new entry arrives by name and a cycle reads it without listing the log first.
        logWatch = new PersistentWatcher(client, paths.log, true);
        logWatch.getListenable().addListener(e -> {
            String path = e.getPath();
            boolean entry = path != null && path.startsWith(paths.log + "/");

            if (entry && e.getType() == Watcher.Event.EventType.NodeCreated)
                logCreated.add(path.substring(paths.log.length() + 1));
            else if (entry && e.getType() == Watcher.Event.EventType.NodeDeleted)
                logDeleted.add(path.substring(paths.log.length() + 1));
            else
                logDirty = true;

            loop.trigger();
        });
        // Registered anew (at start, after a reconnect): what was created before is listed, not announced.
        logWatch.getResetListenable().addListener(() -> {
            logDirty = true;
            loop.trigger();
        });
        logWatch.start();
    }

    /** Watches the names under alive/ as the coordinator, which lists it; or stops, on giving up the role. */
    void watchAlive(boolean on) {
        if (on == aliveWatch.started())
            return;

        if (on) {
            aliveDirty = true; // What changed before the watch was set is listed, not announced.
            aliveWatch.start();
        }
        else
            aliveWatch.close();
    }

    void close() {
        if (logWatch != null)
            logWatch.close();

        logWatch = null;
        aliveWatch.close();
    }

    /** Makes the next cycle list log/ and alive/ afresh, and walk to the elder again. */
    void markAllDirty() {
        logDirty = true;
        aliveDirty = true;
        elder.markDirty();
    }

    /** @return The elder of this node in {@code top}, watched: see {@link ElderWatch}. */
    UUID elder(Topology top) throws Exception {
        return elder.elder(top);
    }

    /** Makes the next cycle list alive/ afresh. */
    void markAliveDirty() {
        aliveDirty = true;
    }

    /**
     * @return Whether the log must be listed whole; if so, the entries announced are dropped with the flag.
     *      Cleared before listing: whatever the watch announces from here is applied next, or skipped as seen.
     */
    boolean takeLogDirty() {
        if (!logDirty)
            return false;

        logDirty = false;
        logCreated.clear();
        logDeleted.clear();

        return true;
    }

    /** @return Whether alive/ must be listed; cleared before listing, as the log's flag. */
    boolean takeAliveDirty() {
        if (!aliveDirty)
            return false;

        aliveDirty = false;

        return true;
    }

    /** @return The log entries announced created since the last call, by name. */
    List<String> drainCreated() {
        return drain(logCreated);
    }

    /** @return The log entries announced deleted since the last call, by name. */
    List<String> drainDeleted() {
        return drain(logDeleted);
    }

    private static List<String> drain(Queue<String> q) {
        List<String> out = new ArrayList<>();

        for (String s = q.poll(); s != null; s = q.poll())
            out.add(s);

        return out;
    }
}
