package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.ignite.IgniteLogger;
import org.apache.zookeeper.data.Stat;

/**
 * The coordinator's view of alive/: a cache of it, checked against this node's own listing where they disagree,
 * and what each alive node says, decoded once per version of its data.
 */
final class AliveView implements AutoCloseable {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final Member member;
    private final IgniteLogger log;

    private final CuratorCache alive;
    private volatile boolean aliveLoaded;

    private final Map<String, Decoded> aliveInfos = new HashMap<>();

    /** Node ids by alive path, parsed once. */
    private final Map<String, UUID> aliveIds = new HashMap<>();

    /** The paths under alive/ at the last step, to tell when a node vanished, and the view they were taken from. */
    private Set<String> lastAlive = Collections.emptySet();
    private Map<UUID, ChildData> lastAliveView;

    /**
     * Counts the changes of who is under alive/ that the cache has seen: a znode created or deleted, the first load.
     * A coordinator steps at every log entry and at every ack, and at 1,000 members an ack comes with nearly every
     * entry, but who is alive seldom changes: the view built from the cache, its reconciliation and the scans of it
     * that departures and joins make are kept until the next such change, rather than made again, N entries sorted and
     * sets of N, at every step. What a node's data says now, its ack, is read through {@link #current}.
     */
    private final AtomicLong changes = new AtomicLong();

    /** The view {@link #aliveNodes} built last, and the count of changes it was built at. */
    private Map<UUID, ChildData> view;
    private long viewChanges = -1;

    /** What {@link #reconciled} returned last with nothing in doubt, and from what. */
    private Map<UUID, ChildData> reconciledView;
    private Map<UUID, ChildData> reconciledFrom;
    private Set<UUID> reconciledListed;
    private Topology reconciledTopology;

    /** Whether the cache was started; read by a test's thread too. */
    private volatile boolean started;

    /** Builds the cache, to be started: every change it sees, and its first full load, schedule a step. */
    AliveView(CoordinatorContext ctx) {
        Runnable trigger = ctx.trigger;

        this.store = ctx.store;
        this.paths = ctx.paths;
        this.codec = ctx.codec;
        this.member = ctx.member;
        this.log = ctx.log;

        alive = CuratorCache.build(store.client(), paths.alive);
        alive.listenable().addListener(CuratorCacheListener.builder()
            .forAll((type, oldData, data) -> {
                // A znode deleted and written again while the cache was away can come back as a change of data (or,
                // if the versions match, as nothing: see refresh).
                if (type != CuratorCacheListener.Type.NODE_CHANGED || czxid(oldData) != czxid(data))
                    changes.incrementAndGet();

                trigger.run();
            })
            .forInitialized(() -> {
                changes.incrementAndGet();
                aliveLoaded = true;
                trigger.run();
            })
            .build());
    }

    /**
     * Has the next step build the view anew. The cache tells of a znode deleted and written again while it was away
     * only if the two differ in version: a joiner's, at version 0 until it is admitted, can come back unseen. The
     * coordinator's tick so bounds how long the view may keep the old one.
     */
    void refresh() {
        changes.incrementAndGet();
    }

    /** @return Whether {@link #start} was called. */
    boolean started() {
        return started;
    }

    /** Starts the cache: it reads every alive znode, which a request sent after it on this session waits for. */
    void start() {
        started = true;
        alive.start();
    }

    /** Set by a test: the caches of every coordinator in this JVM count as not loaded yet. */
    private static volatile boolean loadHeld;

    /** @return Whether the cache has loaded alive/ once: until then it is no view at all. */
    boolean loaded() {
        return aliveLoaded && !loadHeld;
    }

    /** Has every coordinator of this JVM take its cache as not loaded, as at 1,000 members it is for a while. */
    static void holdLoadForTest(boolean hold) {
        loadHeld = hold;
    }

    /** A test's copy of the alive znodes at one moment: their data as a cache that missed every change since has it. */
    private volatile Map<UUID, ChildData> frozen;

    /** Has the view keep the data every alive znode holds now, whatever ZooKeeper changes later. */
    void freezeForTest() {
        Map<UUID, ChildData> now = new LinkedHashMap<>(aliveNodes());

        now.replaceAll((id, d) -> current(d));
        frozen = now;
    }

    /** @return {@code view}, with the data frozen by a test in place of what was read. */
    private Map<UUID, ChildData> frozenData(Map<UUID, ChildData> view) {
        Map<UUID, ChildData> f = frozen;

        if (f == null)
            return view;

        Map<UUID, ChildData> out = new LinkedHashMap<>(view);

        out.replaceAll((id, d) -> f.getOrDefault(id, d));

        return out;
    }

    /** A test's plain persistent watch on alive/, which displaces the cache's recursive one; closed with the view. */
    private volatile PersistentWatcher deafener;

    /** Adds the plain watch, and waits until ZooKeeper has it. */
    void deafenForTest() throws Exception {
        PersistentWatcher plain = new PersistentWatcher(store.client(), paths.alive, false);
        CountDownLatch added = new CountDownLatch(1);

        plain.getResetListenable().addListener(added::countDown);
        plain.start();
        deafener = plain;

        if (!added.await(10, TimeUnit.SECONDS))
            throw new IllegalStateException("ZooKeeper did not take the watch on " + paths.alive);
    }

    /**
     * @return The alive nodes as the cache has them, oldest first; not to be modified. Built anew when who is there
     *      changes, not when a node's data does: read a node's data through {@link #current} or {@link #info}.
     */
    Map<UUID, ChildData> aliveNodes() {
        // Read before the cache is: a change it shows meanwhile has the next call build the view again.
        long seen = changes.get();

        if (view != null && viewChanges == seen)
            return view;

        Map<UUID, ChildData> m = new LinkedHashMap<>();

        alive.stream()
            .filter(d -> !d.getPath().equals(paths.alive))
            .sorted(Comparator.comparingLong(d -> d.getStat().getCzxid()))
            .forEach(d -> {
                UUID id = aliveIds.computeIfAbsent(d.getPath(), p -> ZkPaths.nodeId(p.substring(paths.alive.length() + 1)));

                if (id != null)
                    m.put(id, d);
            });

        view = Collections.unmodifiableMap(m);
        viewChanges = seen;

        return view;
    }

    /**
     * Drops what was parsed or decoded of nodes no longer alive, in one place for both caches. Judged on the
     * reconciled view, so that a stale entry in the cache does not set off a sweep at every step.
     *
     * @return Whether a node vanished since the last step: the data znodes are to be swept then.
     */
    boolean forgetGone(Map<UUID, ChildData> aliveNow) {
        if (aliveNow == lastAliveView)
            return false; // The view of the last step: nothing vanished since.

        lastAliveView = aliveNow;

        Set<String> present = new HashSet<>();

        for (ChildData d : aliveNow.values())
            present.add(d.getPath());

        boolean vanished = !present.containsAll(lastAlive);

        aliveIds.keySet().retainAll(present);
        aliveInfos.keySet().retainAll(present);
        lastAlive = present;

        return vanished;
    }

    /**
     * The cache learns of changes in the background and can lag, or miss one: Curator only logs a background read
     * that failed. Where it and the listing disagree, on a node either names or on a member of the topology,
     * ZooKeeper is asked directly, so that a stale cache can neither hold up a join nor keep a dead node in.
     *
     * @return The alive nodes, oldest first.
     */
    Map<UUID, ChildData> reconciled(Map<UUID, ChildData> cached, Set<UUID> listed) throws Exception {
        Topology top = member.topology();

        // The same view, listing and topology as at the last step, which found nothing in doubt: nor does this one.
        if (cached == reconciledFrom && listed == reconciledListed && top == reconciledTopology && frozen == null)
            return reconciledView;

        Set<UUID> doubtful = new HashSet<>(listed);

        doubtful.addAll(cached.keySet());

        for (ZkIonClusterNode n : top.members())
            doubtful.add(n.id());

        doubtful.removeIf(id -> listed.contains(id) && cached.containsKey(id));

        if (doubtful.isEmpty()) {
            reconciledView = frozenData(cached);
            reconciledFrom = cached;
            reconciledListed = listed;
            reconciledTopology = top;

            return reconciledView;
        }

        reconciledFrom = null; // Read directly at every step while in doubt.

        List<ChildData> all = new ArrayList<>();

        for (Map.Entry<UUID, ChildData> e : cached.entrySet()) {
            if (!doubtful.contains(e.getKey()))
                all.add(e.getValue());
        }

        for (UUID id : doubtful) {
            Stat stat = new Stat();
            byte[] data = store.rawData(paths.alive(id), stat);

            if (data != null)
                all.add(new ChildData(paths.alive(id), stat, data));
        }

        all.sort(Comparator.comparingLong(d -> d.getStat().getCzxid()));

        Map<UUID, ChildData> out = new LinkedHashMap<>();

        for (ChildData d : all)
            out.put(ZkPaths.nodeId(d.getPath().substring(paths.alive.length() + 1)), d);

        return frozenData(out);
    }

    /**
     * @return {@code id}'s alive znode as ZooKeeper has it now, read directly; null if it is gone. For an ack the
     *      cache may hold stale: it can miss a data change (seen after a ZooKeeper leader change), not only a name.
     */
    ChildData readDirectly(UUID id) throws Exception {
        Stat stat = new Stat();
        byte[] data = store.rawData(paths.alive(id), stat);

        return data == null ? null : new ChildData(paths.alive(id), stat, data);
    }

    /**
     * @return The newest version of {@code d}'s znode this coordinator has: the view keeps a node's data as it was when
     *      the view was built, and acks change it since. The cache's version if it is newer and of the same znode.
     */
    ChildData current(ChildData d) {
        // A test's frozen data stands for a cache that missed every change since.
        if (d == null || frozen != null || d.getStat() == null)
            return d;

        ChildData now = alive.get(d.getPath()).orElse(null);

        return now != null && now.getStat() != null && now.getStat().getCzxid() == d.getStat().getCzxid()
            && now.getStat().getMzxid() > d.getStat().getMzxid() ? now : d;
    }

    /** @return What an alive node says now (see {@link #current}), decoded once per version of its data. */
    AliveInfo info(ChildData d) {
        d = current(d);

        long mzxid = d.getStat() == null ? -1 : d.getStat().getMzxid();
        Decoded cached = aliveInfos.get(d.getPath());

        if (cached != null && cached.mzxid == mzxid && mzxid != -1)
            return cached.info;

        AliveInfo a;

        try {
            a = codec.decodeAlive(d.getData(), d.getPath());
        }
        catch (CodecException e) {
            log.warning("Unreadable alive node (the log is not trimmed until it reads): " + e.getMessage());
            a = null;
        }

        aliveInfos.put(d.getPath(), new Decoded(mzxid, a));

        return a;
    }

    /** @return The creation zxid of an alive znode, -1 if unknown: a joiner that asks again makes a new one. */
    static long czxid(ChildData d) {
        return d == null || d.getStat() == null ? -1 : d.getStat().getCzxid();
    }

    @Override public void close() {
        alive.close();

        if (deafener != null)
            deafener.close();
    }

    /** An alive node's data as decoded, with the version it was decoded from. */
    private static final class Decoded {
        public final long mzxid;
        public final AliveInfo info;

        Decoded(long mzxid, AliveInfo info) {
            this.mzxid = mzxid;
            this.info = info;
        }
    }
}
