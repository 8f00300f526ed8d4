package io.zkion.discovery.bench.sidebyside;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.IgniteDiscoverySpi;

/** The measured scenarios. Each returns plain numbers; the driver alternates SPIs and aggregates. */
final class Scenarios {
    private Scenarios() {
    }

    /** @return Per event, ms from send until every node's listener has it; sent one at a time. */
    static double[] customRoundTrip(List<Ignite> nodes, int events) throws Exception {
        return customRoundTrip(nodes, events, false);
    }

    /** @return Per event, ms from send until every node's listener has it; sent one at a time, mutable or not. */
    static double[] customRoundTrip(List<Ignite> nodes, int events, boolean mutable) throws Exception {
        CountDownLatch[] done = new CountDownLatch[events];

        for (int i = 0; i < events; i++)
            done[i] = new CountDownLatch(nodes.size());

        // Ignite appends listeners: an earlier call's stays, and counts down only its own latches, long released.
        for (Ignite n : nodes) {
            ((IgniteEx)n).context().discovery().setCustomEventListener(Ping.class, (topVer, snd, msg) -> {
                if (msg.seq >= 0 && msg.seq < events)
                    done[msg.seq].countDown();
            });
        }

        double[] ms = new double[events];
        Ignite sender = BenchCluster.youngest(nodes); // Not the coordinator: its message goes through ZooKeeper.

        for (int i = 0; i < events; i++) {
            long t0 = System.nanoTime();

            ((IgniteEx)sender).context().discovery().sendCustomEvent(new Ping(i, mutable));

            if (!done[i].await(30, TimeUnit.SECONDS))
                throw new IllegalStateException("Custom event " + i + " did not reach every node");

            ms[i] = (System.nanoTime() - t0) / 1e6;
        }

        return ms;
    }

    /** @return Bytes allocated by every thread of this JVM (all nodes) per no-op custom event. */
    static double allocationPerEvent(List<Ignite> nodes, int events) throws Exception {
        customRoundTrip(nodes, 50); // Warm up the listeners and code paths.

        long before = allocatedTotal(t -> true);

        customRoundTrip(nodes, events);

        return (allocatedTotal(t -> true) - before) / (double)events;
    }

    /** @return Bytes allocated by the threads of {@code crd} alone per no-op custom event sent from another node. */
    static double[] coordinatorAllocationPerEvent(List<Ignite> nodes, Ignite crd, int events) throws Exception {
        customRoundTrip(nodes, 50); // Warm up.

        Map<Long, Long> before = allocatedBy(crd.name());
        long lsnr0 = SpiKind.listenerBytes(crd.configuration().getDiscoverySpi());

        customRoundTrip(nodes, events);

        long lsnr = SpiKind.listenerBytes(crd.configuration().getDiscoverySpi()) - lsnr0;
        Map<Long, Long> after = allocatedBy(crd.name());
        Map<Long, String> names = threadNames();
        long all = 0;
        long spi = 0;

        for (Map.Entry<Long, Long> e : after.entrySet()) {
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);

            all += d;

            if (spiThread(names.getOrDefault(e.getKey(), "")))
                spi += d;
        }

        return new double[] {all / (double)events, spi / (double)events, (spi - lsnr) / (double)events};
    }

    /**
     * @return Whether a thread is the discovery SPI's own: ZkIon's discovery and Curator threads, a ZooKeeper
     *      client's, the stock SPI's {@code zk-} threads, TcpDiscoverySpi's {@code tcp-disco-} threads. Each also runs
     *      the part of Ignite's listener that an SPI calls synchronously.
     */
    static boolean spiThread(String t) {
        return t.startsWith("zkion-") || t.startsWith("zk-") || t.startsWith("tcp-disco") || zkSendThread(t)
            || t.endsWith("-EventThread");
    }

    private static Map<Long, String> threadNames() {
        Map<Long, String> out = new HashMap<>();

        for (java.lang.management.ThreadInfo ti : ManagementFactory.getThreadMXBean().getThreadInfo(
            ManagementFactory.getThreadMXBean().getAllThreadIds())) {
            if (ti != null)
                out.put(ti.getThreadId(), ti.getThreadName());
        }

        return out;
    }

    /** @return The CPU time so far of each live thread of a discovery SPI ({@link #spiThread}), by thread id. */
    static Map<Long, Long> spiCpuNanos() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();

        return byThread(Scenarios::spiThread, mx::getThreadCpuTime);
    }

    /** @return The CPU time the SPI threads live now spent since {@code before} (a new thread counts whole). */
    static long spiCpuNanosSince(Map<Long, Long> before) {
        return since(before, spiCpuNanos());
    }

    /**
     * @return Whether a thread is a ZooKeeper session's send thread: its socket I/O, which any client pays. Not its
     *      event thread, which runs the callbacks of whoever uses it: the stock SPI does most of its work there.
     */
    static boolean zkSendThread(String t) {
        return t.contains("-SendThread(");
    }

    /** @return The CPU time so far of each live ZooKeeper send thread ({@link #zkSendThread}), by thread id. */
    static Map<Long, Long> zkSendCpuNanos() {
        return byThread(Scenarios::zkSendThread, ManagementFactory.getThreadMXBean()::getThreadCpuTime);
    }

    /** @return The CPU time the ZooKeeper send threads live now spent since {@code before}. */
    static long zkSendCpuNanosSince(Map<Long, Long> before) {
        return since(before, zkSendCpuNanos());
    }

    /** @return What each of {@code now}'s threads added since {@code before}; a thread new since counts whole. */
    private static long since(Map<Long, Long> before, Map<Long, Long> now) {
        long total = 0;

        for (Map.Entry<Long, Long> e : now.entrySet())
            total += e.getValue() - before.getOrDefault(e.getKey(), 0L);

        return total;
    }

    /** @return {@code measure} of each live thread whose name passes {@code threadName}, where positive, by id. */
    private static Map<Long, Long> byThread(java.util.function.Predicate<String> threadName,
        java.util.function.LongUnaryOperator measure) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<Long, Long> out = new HashMap<>();

        for (java.lang.management.ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (ti == null || !threadName.test(ti.getThreadName()))
                continue;

            long v = measure.applyAsLong(ti.getThreadId());

            if (v > 0)
                out.put(ti.getThreadId(), v);
        }

        return out;
    }

    /** @return Bytes allocated so far by all live threads whose name passes {@code threadName}, together. */
    static long allocatedTotal(java.util.function.Predicate<String> threadName) {
        long total = 0;

        for (long b : allocatedBy(threadName).values())
            total += b;

        return total;
    }

    /**
     * @return Bytes allocated so far by each live thread of node {@code name}, or by every thread if {@code name}
     *      is null.
     */
    static Map<Long, Long> allocatedBy(String name) {
        return allocatedBy(t -> name == null || ofNode(t, name));
    }

    /** @return Bytes allocated so far by each live thread whose name passes {@code threadName}. */
    static Map<Long, Long> allocatedBy(java.util.function.Predicate<String> threadName) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

        return byThread(threadName, mx::getThreadAllocatedBytes);
    }

    /**
     * @return Whether a thread belongs to node {@code name}: Ignite's and ZkIon's threads carry {@code %name%}; the
     *      stock SPI names its ZooKeeper client threads {@code zk-name-...} and {@code zk-client-timer-name}.
     */
    private static boolean ofNode(String thread, String name) {
        return thread.contains("%" + name + "%") || thread.startsWith("zk-" + name + "-")
            || thread.equals("zk-client-timer-" + name);
    }

    /** @return Bytes the threads of node {@code name} allocated since {@code before} (a new thread counts whole). */
    static long allocatedSince(Map<Long, Long> before, String name) {
        return since(before, allocatedBy(name));
    }

    /** What creating caches one by one cost, per cache. */
    static final class CacheCreates {
        /** Zxids of marker znodes just before and after the creates, around what they wrote; -1 without ZooKeeper. */
        long fromZxid;
        long toZxid;

        double msPerCache;
        double coordinatorBytesPerCache;
        double zkBytesPerCache;

        /** The last create's message (Ignite's DynamicCacheChangeBatch) marshalled and compressed: sent at least once. */
        double messageBytes;
    }

    /** Creates {@code count} caches from {@code from}, one after another, then destroys them (not measured). */
    static CacheCreates cacheCreates(Ignite from, Ignite crd, int count, int zkPort,
        java.util.concurrent.Callable<Long> marker) throws Exception {
        from.getOrCreateCache("bench-warmup");
        from.destroyCache("bench-warmup");

        CacheCreates r = new CacheCreates();

        r.fromZxid = marker.call();

        Map<Long, Long> before = allocatedBy(crd.name());
        long zk0 = zkBytesReceived(zkPort);
        long t0 = System.nanoTime();

        for (int i = 0; i < count; i++)
            from.createCache("bench-cache-" + i);

        r.msPerCache = (System.nanoTime() - t0) / 1e6 / count;
        r.zkBytesPerCache = (zkBytesReceived(zkPort) - zk0) / (double)count;
        r.toZxid = marker.call();
        r.coordinatorBytesPerCache = allocatedSince(before, crd.name()) / (double)count;

        Object msg = SpiKind.meter(from.configuration().getDiscoverySpi()).lastSent("DynamicCacheChangeBatch");

        if (msg == null)
            throw new IllegalStateException("No cache create message was sent from " + from.name());

        try {
            r.messageBytes = Bounds.compressedBytes(from, msg);
        }
        catch (Exception e) {
            throw new IllegalStateException("Cannot measure the cache create message", e);
        }

        for (int i = 0; i < count; i++)
            from.destroyCache("bench-cache-" + i);

        return r;
    }

    /**
     * Scenario 7: a node with {@code caches} caches joins a node that has them too. Ignite's join data carries every
     * cache configuration both ways.
     *
     * @return {ms until both nodes see each other, or -1 if the join failed; ZooKeeper bytes received meanwhile}.
     */
    static double[] largeJoin(BenchCluster c, int caches, int zkPort) {
        java.util.function.UnaryOperator<org.apache.ignite.configuration.IgniteConfiguration> withCaches =
            cfg -> cfg.setCacheConfiguration(LargeCaches.configs(caches));

        // Started from pool threads, as in the storms: a node's stop may leave an interrupt on the thread it ran on.
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();

        try {
            pool.submit(() -> c.start(withCaches)).get();

            long zk0 = zkBytesReceived(zkPort);
            long t0 = System.nanoTime();

            try {
                pool.submit(() -> c.start(withCaches)).get(180, TimeUnit.SECONDS);

                for (Ignite n : c.nodes())
                    Wait.until(120_000, () -> n.cluster().nodes().size() == 2);
            }
            catch (Exception e) {
                SideBySide.log("the join with " + caches + " caches failed: " + e);

                return new double[] {-1, zkBytesReceived(zkPort) - zk0};
            }

            return new double[] {(System.nanoTime() - t0) / 1e6, zkBytesReceived(zkPort) - zk0};
        }
        catch (Exception e) {
            throw new IllegalStateException("The first node with " + caches + " caches did not start", e);
        }
        finally {
            pool.shutdownNow();
        }
    }

    /**
     * @return ms from a graceful stop until: every other node's event listeners saw NODE_LEFT; Ignite called the
     *      leaving node's SPI stop; every other node's SPI handed NODE_LEFT to Ignite. The second is Ignite's own
     *      stop sequence: no SPI can announce the leave before it, short of announcing it before Ignite has stopped
     *      using the cluster. From the third to the first is Ignite's handling of the event.
     */
    static double[] leave(BenchCluster c, Ignite leaving) throws Exception {
        SpiMeter meter = SpiKind.meter(leaving.configuration().getDiscoverySpi());
        List<Ignite> others = c.nodes();
        long[] t0 = new long[1];

        others.remove(leaving);

        double ms = departure(c, leaving, EventType.EVT_NODE_LEFT, () -> Ignition.stop(leaving.name(), true), t0);
        long stopCalled = meter.stopCalledNanos();
        long notified = 0;

        for (Ignite n : others)
            notified = Math.max(notified, SpiKind.meter(n.configuration().getDiscoverySpi()).nodeLeftNotifiedNanos());

        return new double[] {ms, stopCalled == 0 ? Double.NaN : (stopCalled - t0[0]) / 1e6,
            notified == 0 ? Double.NaN : (notified - t0[0]) / 1e6};
    }

    /** @return ms from an abrupt session loss until every other node saw NODE_FAILED. */
    static double failure(BenchCluster c, Ignite failing) throws Exception {
        return departure(c, failing, EventType.EVT_NODE_FAILED,
            () -> ((IgniteDiscoverySpi)failing.configuration().getDiscoverySpi()).simulateNodeFailure(), new long[1]);
    }

    /** @param startedAt Set to {@link System#nanoTime()} when {@code action} was started. */
    private static double departure(BenchCluster c, Ignite gone, int type, Runnable action, long[] startedAt)
        throws Exception {
        List<Ignite> others = c.nodes();

        others.remove(gone);

        CountDownLatch seen = new CountDownLatch(others.size());
        java.util.UUID id = gone.cluster().localNode().id();

        for (Ignite n : others) {
            n.events().localListen(e -> {
                if (((org.apache.ignite.events.DiscoveryEvent)e).eventNode().id().equals(id))
                    seen.countDown();

                return true;
            }, type);
        }

        // The stop runs on its own thread: Ignition.stop returns only once the node has shut down, which can be
        // long after the others saw it go, and that is what is measured.
        Thread stopper = new Thread(action, "bench-departure");
        long t0 = System.nanoTime();

        startedAt[0] = t0;
        stopper.start();

        if (!seen.await(60, TimeUnit.SECONDS))
            throw new IllegalStateException("Not every node saw event " + type + " for " + id);

        double ms = (System.nanoTime() - t0) / 1e6;

        // Joined before the stop time is read: the SPI's stop is called during Ignition.stop.
        stopper.join(60_000);

        c.forget(gone);

        try {
            Ignition.stop(gone.name(), true);
        }
        catch (Exception ignored) {
            // Already stopped.
        }

        return ms;
    }

    /** @return ZooKeeper's count of bytes received from clients, from its {@code mntr} command; -1 if unknown. */
    static long zkBytesReceived(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();

            out.write("mntr".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));

            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("zk_bytes_received_count"))
                    return Long.parseLong(line.split("\\s+")[1].trim());
            }
        }
        catch (Exception ignored) {
            // Reported as unknown.
        }

        return -1;
    }
}
