package io.zkion.discovery.bench.sidebyside;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.events.EventType;
import org.apache.ignite.failure.StopNodeFailureHandler;
import org.apache.ignite.logger.NullLogger;
import org.apache.ignite.plugin.segmentation.SegmentationPolicy;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/** Ignite server nodes in this JVM on one SPI, configured alike for every SPI. */
final class BenchCluster implements AutoCloseable {
    static final int TIMEOUT = 6_000;

    private final SpiKind kind;
    private final String zk;
    private final String root;
    private final List<Ignite> nodes = new ArrayList<>();
    private int seq;

    BenchCluster(SpiKind kind, String zk, String root) {
        this.kind = kind;
        this.zk = zk;
        this.root = root;
    }

    Ignite start() {
        return start(cfg -> cfg);
    }

    /**
     * Starts a node from a thread named after it, Ignite's way ({@code %name%}): the ZooKeeper client names its
     * threads after the thread that creates it, so every thread of a node can be told by its name.
     */
    Ignite start(java.util.function.UnaryOperator<IgniteConfiguration> adjust) {
        String name;

        synchronized (nodes) {
            name = kind + "-" + root.replace('/', '_') + "-" + seq++;
        }

        Thread t = Thread.currentThread();
        String was = t.getName();

        t.setName("start-" + name + "%" + name + "%");

        try {
            Ignite n = Ignition.start(adjust.apply(config(name)));

            synchronized (nodes) {
                nodes.add(n);
            }

            return n;
        }
        finally {
            t.setName(was);
        }
    }

    /** @return The oldest node: the coordinator of every SPI compared. */
    Ignite oldest() {
        return nodes().stream().min(java.util.Comparator.comparingLong(n -> n.cluster().localNode().order())).get();
    }

    /** @return The youngest node by join order, never the coordinator while there are two: the one that sends. */
    Ignite youngest() {
        return youngest(nodes());
    }

    /** @return The node of {@code nodes} that joined last. */
    static Ignite youngest(List<Ignite> nodes) {
        return nodes.stream().max(java.util.Comparator.comparingLong(n -> n.cluster().localNode().order())).get();
    }

    /** Starts {@code count} nodes at once; returns the ms until every node sees all of them. */
    long startTogether(int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        List<Future<Ignite>> futs = new ArrayList<>();
        long t0 = System.nanoTime();

        try {
            for (int i = 0; i < count; i++)
                futs.add(pool.submit(() -> start()));

            for (Future<Ignite> f : futs)
                f.get();
        }
        finally {
            pool.shutdown();
        }

        for (Ignite n : nodes())
            Wait.until(120_000, () -> n.cluster().nodes().size() == count);

        return (System.nanoTime() - t0) / 1_000_000;
    }

    List<Ignite> nodes() {
        synchronized (nodes) {
            return new ArrayList<>(nodes);
        }
    }

    void forget(Ignite n) {
        synchronized (nodes) {
            nodes.remove(n);
        }
    }

    private IgniteConfiguration config(String name) {
        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        return new IgniteConfiguration()
            .setIgniteInstanceName(name)
            .setLocalHost("127.0.0.1")
            .setGridLogger(new NullLogger())
            .setDiscoverySpi(kind.create(zk, root, TIMEOUT))
            .setCommunicationSpi(comm)
            .setFailureDetectionTimeout(TIMEOUT)
            .setIncludeEventTypes(EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED)
            .setSegmentationPolicy(SegmentationPolicy.STOP)
            .setFailureHandler(new StopNodeFailureHandler())
            .setMetricsLogFrequency(0)
            .setPublicThreadPoolSize(2).setSystemThreadPoolSize(2).setStripedPoolSize(2).setQueryThreadPoolSize(1)
            .setServiceThreadPoolSize(1).setDataStreamerThreadPoolSize(1).setManagementThreadPoolSize(1)
            .setDataStorageConfiguration(new DataStorageConfiguration().setDefaultDataRegionConfiguration(
                new DataRegionConfiguration().setName("default").setInitialSize(16L << 20).setMaxSize(64L << 20)));
    }

    @Override public void close() {
        for (Ignite n : nodes()) {
            try {
                Ignition.stop(n.name(), true);
            }
            catch (Exception ignored) {
                // Stopped already.
            }
        }

        nodes.clear();
    }
}
