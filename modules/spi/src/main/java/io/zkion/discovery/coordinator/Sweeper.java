package io.zkion.discovery.coordinator;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.member.LogEntry;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.ignite.IgniteLogger;

/**
 * Removes what nobody will ever read, so that ZooKeeper's data stays bounded however long the cluster runs: answers
 * to joiners that died before reading them, {@code left/} markers of nodes no longer in the cluster, and parts that
 * no manifest names (a multi that failed after writing them, a cluster that died), and the common data a batch of
 * joins shared, once its entry is trimmed. It runs at takeover and then every minute ({@value #INTERVAL_PROPERTY} to
 * change it); a part is removed only if it was unnamed at two sweeps in a row, so that a write whose parts are written
 * and whose multi is still to come keeps them.
 */
final class Sweeper {
    /** The system property that sets how often the sweep runs, in ms. */
    static final String INTERVAL_PROPERTY = "zkion.sweepIntervalMs";

    private final long intervalMs = Long.getLong(INTERVAL_PROPERTY, 60_000);

    private final ZkStore store;
    private final ZkPaths paths;
    private final Member member;
    private final IgniteLogger log;

    private long next = System.nanoTime();

    /** Parts unnamed at the last sweep. */
    private Set<String> unnamed = Collections.emptySet();

    Sweeper(CoordinatorContext ctx) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.member = ctx.member;
        this.log = ctx.log;
    }

    /** Sweeps, if it is time to. */
    void step(Map<UUID, ChildData> aliveNow) throws Exception {
        long now = System.nanoTime();

        if (now - next < 0)
            return;

        next = now + TimeUnit.MILLISECONDS.toNanos(intervalMs);

        int removed = sweepGone(paths.joined, aliveNow) + sweepGone(paths.left, aliveNow) + sweepParts();

        if (removed > 0)
            log.info("Swept " + removed + " znode(s) nobody will read under " + paths.root);
    }

    /**
     * Removes the children of {@code dir} named for nodes neither in the cluster nor alive, and the common data a
     * batch of joins shared once no untrimmed entry holds that batch (its trim missed it).
     */
    private int sweepGone(String dir, Map<UUID, ChildData> aliveNow) throws Exception {
        Set<UUID> batches = new HashSet<>();
        int removed = 0;

        for (LogEntry e : member.entries().inOrder()) {
            if (!e.joined.isEmpty())
                batches.add(e.joined.get(0));
        }

        for (String name : store.children(dir)) {
            UUID id = ZkPaths.nodeId(name);
            UUID batch = ZkPaths.sharedFor(name);

            if (id != null && (member.topology().contains(id) || aliveNow.containsKey(id)))
                continue;

            if (batch != null && batches.contains(batch))
                continue;

            store.deleteQuietly(dir + "/" + name);
            removed++;
        }

        return removed;
    }

    private int sweepParts() throws Exception {
        Set<String> now = store.unreferencedParts(paths.withManifests());
        int removed = 0;

        for (String part : now) {
            if (unnamed.contains(part)) {
                store.deleteQuietly(part);
                removed++;
            }
        }

        now.removeAll(unnamed);
        unnamed = now;

        return removed;
    }
}
