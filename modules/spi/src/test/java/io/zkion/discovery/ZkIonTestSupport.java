package io.zkion.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.events.DiscoveryEvent;
import org.apache.ignite.events.EventType;
import org.apache.ignite.failure.StopNodeFailureHandler;
import org.apache.ignite.plugin.segmentation.SegmentationPolicy;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.apache.zookeeper.ZooDefs;
import org.junit.After;
import org.junit.Before;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.fail;

/**
 * Starts a ZooKeeper test server and Ignite nodes on this SPI, several in one JVM, with small data regions.
 * Each test gets its own root path, so nothing leaks between tests.
 */
public abstract class ZkIonTestSupport {
    /** Session timeout of test nodes: short, so failures are detected fast, within what the test server allows. */
    protected static final int SESSION_TIMEOUT = 6_000;

    protected TestingServer zk;
    protected String root;
    protected final List<Ignite> nodes = Collections.synchronizedList(new ArrayList<>());

    @Before public void startZk() throws Exception {
        zk = new TestingServer(true);
        root = "/zkion-test-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @After public void stopAll() throws Exception {
        List<Ignite> copy = new ArrayList<>(nodes);

        Collections.reverse(copy);

        for (Ignite n : copy) {
            try {
                Ignition.stop(n.name(), true);
            }
            catch (Exception ignored) {
                // Already stopped by the test.
            }
        }

        nodes.clear();

        if (zk != null)
            zk.close();
    }

    protected ZkIonDiscoverySpi spi() {
        return configured(new ZkIonDiscoverySpi());
    }

    /** @return {@code spi}, a subclass a test made, pointed at this test's ZooKeeper and root, at its session timeout. */
    protected ZkIonDiscoverySpi configured(ZkIonDiscoverySpi spi) {
        return spi.setZkConnectionString(zk.getConnectString()).setZkRootPath(root).setSessionTimeout(SESSION_TIMEOUT);
    }

    protected IgniteConfiguration config(String name, boolean client) {
        DataStorageConfiguration storage = new DataStorageConfiguration().setDefaultDataRegionConfiguration(
            new DataRegionConfiguration().setName("default").setInitialSize(32L << 20).setMaxSize(160L << 20));

        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        return new IgniteConfiguration()
            .setIgniteInstanceName(name)
            .setClientMode(client)
            .setLocalHost("127.0.0.1")
            .setDiscoverySpi(spi())
            .setCommunicationSpi(comm)
            .setDataStorageConfiguration(storage)
            .setFailureDetectionTimeout(SESSION_TIMEOUT)
            .setClientFailureDetectionTimeout(SESSION_TIMEOUT)
            .setMetricsLogFrequency(0)
            .setPublicThreadPoolSize(2)
            .setSystemThreadPoolSize(2)
            .setStripedPoolSize(2)
            .setQueryThreadPoolSize(1)
            .setServiceThreadPoolSize(1)
            .setDataStreamerThreadPoolSize(1)
            .setManagementThreadPoolSize(1)
            .setPeerClassLoadingEnabled(false)
            .setIncludeEventTypes(EventType.EVTS_DISCOVERY_ALL)
            // A node pushed out of the cluster stops; never halt the test JVM.
            .setSegmentationPolicy(SegmentationPolicy.STOP)
            .setFailureHandler(new StopNodeFailureHandler());
    }

    /** Records the DISCONNECTED and RECONNECTED events a client sees, by type, in the order it sees them. */
    protected static List<Integer> recordReconnects(Ignite client) {
        List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        client.events().localListen(e -> {
            seen.add(e.type());

            return true;
        }, EventType.EVT_CLIENT_NODE_DISCONNECTED, EventType.EVT_CLIENT_NODE_RECONNECTED);

        return seen;
    }

    /** Records the discovery events a node sees, as "TYPE order=N topVer=V", in the order it sees them. */
    protected static List<String> record(Ignite n) {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());

        n.events().localListen(e -> {
            DiscoveryEvent d = (DiscoveryEvent)e;

            seen.add(d.name() + " order=" + d.eventNode().order() + " topVer=" + d.topologyVersion());

            return true;
        }, EventType.EVT_NODE_JOINED, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED);

        return seen;
    }

    protected Ignite start(String name) {
        return start(config(name, false));
    }

    protected Ignite startClient(String name) {
        return start(config(name, true));
    }

    protected Ignite start(IgniteConfiguration cfg) {
        Ignite n = Ignition.start(cfg);

        nodes.add(n);

        return n;
    }

    /** Starts {@code count} servers at once, from as many threads, and returns when all have started. */
    protected void startConcurrently(int count, String prefix) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(count);
        List<java.util.concurrent.Future<Ignite>> futs = new ArrayList<>();

        try {
            for (int i = 0; i < count; i++) {
                String name = prefix + i;

                futs.add(pool.submit(() -> start(name)));
            }

            for (java.util.concurrent.Future<Ignite> f : futs)
                f.get();
        }
        finally {
            pool.shutdown();
        }
    }

    /** Waits, by polling every 50 ms, until {@code cond} holds; fails after {@code ms}. */
    /** What a test does while the coordinator is held with the join requests there. */
    protected interface WhileHeld {
        void run(CuratorFramework c) throws Exception;
    }

    /**
     * Starts servers of {@code cfgs} while the coordinator {@code crd} is held, so that its next pass sees all their
     * requests; runs {@code whileHeld} once they are there, then lets the coordinator go and waits for the joins.
     */
    protected void joinInOnePass(Ignite crd, List<IgniteConfiguration> cfgs, WhileHeld whileHeld) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(cfgs.size());
        List<Future<Ignite>> started = new ArrayList<>();

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            AutoCloseable held = spiOf(crd).engine().holdDiscoveryForTest();

            try {
                for (IgniteConfiguration cfg : cfgs)
                    started.add(pool.submit(() -> start(cfg)));

                await(cfgs.size() + " join requests", 60_000,
                    () -> childrenOf(c, root + "/join").size() == cfgs.size());
                whileHeld.run(c);
            }
            finally {
                held.close();
            }

            for (Future<Ignite> f : started)
                assertNotNull(f.get(120, TimeUnit.SECONDS));
        }
        finally {
            pool.shutdownNow();
        }
    }

    /** @return The children of {@code path}, or none if it cannot be listed (yet). */
    protected static List<String> childrenOf(CuratorFramework c, String path) {
        try {
            return c.getChildren().forPath(path);
        }
        catch (Exception e) {
            return List.of();
        }
    }

    protected static void await(String what, long ms, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);

        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                dumpThreads("Timed out waiting for: " + what);
                fail("Timed out after " + ms + " ms waiting for: " + what);
            }

            Thread.sleep(50);
        }
    }

    /** Prints every thread's stack to the test's output: a wait that timed out says what held it. */
    protected static void dumpThreads(String why) {
        StringBuilder sb = new StringBuilder("Threads at: ").append(why).append('\n');

        for (java.lang.management.ThreadInfo t : java.lang.management.ManagementFactory.getThreadMXBean()
            .dumpAllThreads(true, true)) {
            sb.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());

            if (t.getLockName() != null)
                sb.append(" on ").append(t.getLockName());

            if (t.getLockOwnerName() != null)
                sb.append(" owned by \"").append(t.getLockOwnerName()).append('"');

            sb.append('\n');

            for (StackTraceElement e : t.getStackTrace())
                sb.append("\tat ").append(e).append('\n');
        }

        System.err.println(sb);
    }

    /** Waits until custom/ is empty for a while: the nodes' own start-up messages (metastorage) are logged. */
    protected void awaitQuietQueue() throws Exception {
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            for (int quiet = 0; quiet < 10; quiet = c.getChildren().forPath(root + "/custom").isEmpty() ? quiet + 1 : 0)
                Thread.sleep(100);
        }
    }

    /** @return Whether the multi logs a message queued in custom/: it deletes the request and creates an entry. */
    protected boolean logsQueuedMessage(List<CuratorOp> ops) {
        boolean deletesRequest = ops.stream().anyMatch(o -> o.get().getType() == ZooDefs.OpCode.delete
            && o.get().getPath().startsWith(root + "/custom/"));
        boolean createsEntry = ops.stream().anyMatch(o -> o.get().getType() == ZooDefs.OpCode.create
            && o.get().getPath().startsWith(root + "/log/"));

        return deletesRequest && createsEntry;
    }

    /** @return The MBean of {@code n}'s SPI, as an operator reads it. */
    protected static ZkIonDiscoverySpiMBean spiMBean(Ignite n) {
        return new SpiMBean(spiOf(n));
    }

    protected static ZkIonDiscoverySpi spiOf(Ignite n) {
        return (ZkIonDiscoverySpi)n.configuration().getDiscoverySpi();
    }

    /** @return Metric {@code name} of registry {@code registry} on node {@code n}. */
    protected static long metric(Ignite n, String registry, String name) {
        return ((org.apache.ignite.internal.IgniteEx)n).context().metric().registry(registry)
            .<org.apache.ignite.spi.metric.LongMetric>findMetric(name).value();
    }
}
