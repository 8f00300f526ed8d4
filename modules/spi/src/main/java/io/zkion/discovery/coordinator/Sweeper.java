package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.ignite.IgniteLogger;
import org.apache.zookeeper.data.Stat;

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

        List<String> joined = store.children(paths.joined); // Answers and shared common data: one listing for both.
        int removed = sweepGone(paths.joined, joined, aliveNow) + sweepShared(joined)
            + sweepGone(paths.left, store.children(paths.left), aliveNow) + sweepParts();

        if (removed > 0)
            log.info("Swept " + removed + " znode(s) nobody will read under " + paths.root);
    }

    /** Removes the children {@code names} of {@code dir} named for nodes neither in the cluster nor alive. */
    private int sweepGone(String dir, List<String> names, Map<UUID, ChildData> aliveNow) {
        int removed = 0;

        for (String name : names) {
            UUID id = ZkPaths.nodeId(name);

            if (name.startsWith(ZkPaths.SHARED_PREFIX))
                continue; // Its own rule: sweepShared.

            if (id != null && (member.topology().contains(id) || aliveNow.containsKey(id)))
                continue;

            store.deleteQuietly(dir + "/" + name);
            removed++;
        }

        return removed;
    }

    /**
     * Removes the common data a batch of joins shared once its entry is trimmed. Both were created in one multi, so
     * with one zxid, and only a trim removes entries: a shared znode older than the oldest entry (or with the log empty)
     * has lost its entry. Judged on ZooKeeper alone, not on this node's view of the log, which may lack an entry it could
     * not read or one whose commit's outcome it could not tell.
     */
    private int sweepShared(List<String> joined) throws Exception {
        List<String> shared = new ArrayList<>();

        for (String name : joined) {
            if (name.startsWith(ZkPaths.SHARED_PREFIX))
                shared.add(paths.joined + "/" + name);
        }

        if (shared.isEmpty())
            return 0;

        long oldest = oldestEntryZxid();
        int removed = 0;

        for (String path : shared) {
            Stat stat = store.client().checkExists().forPath(path);

            if (stat != null && stat.getCzxid() < oldest) {
                store.deleteQuietly(path);
                removed++;
            }
        }

        return removed;
    }

    /**
     * @return The creation zxid of the oldest entry of the log; the largest if the log is empty; the smallest (nothing
     *      is older) if it could not be told, the oldest trimmed between the listing and its read.
     */
    private long oldestEntryZxid() throws Exception {
        List<String> names = store.children(paths.log);

        if (names.isEmpty())
            return Long.MAX_VALUE;

        String oldest = Collections.min(names, Comparator.comparingLong(ZkPaths::sequence));
        Stat stat = store.client().checkExists().forPath(paths.log + "/" + oldest);

        return stat == null ? Long.MIN_VALUE : stat.getCzxid();
    }

    private int sweepParts() throws Exception {
        Set<String> now = store.leftovers().unreferencedParts(paths.withManifests());
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
