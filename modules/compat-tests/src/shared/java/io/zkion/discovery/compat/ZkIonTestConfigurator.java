package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.configuration.IgniteConfiguration;

/**
 * Ignite's configuration preprocessor hook ({@code -Dignite.cfg.preprocessor.class}): every node that
 * Ignite's own tests start gets ZkIonDiscoverySpi, on one ZooKeeper test server per JVM.
 */
public final class ZkIonTestConfigurator {
    /** Short ticks, so that the session timeouts Ignite's tests use (1 to 10 s) are all accepted. */
    private static final int TICK_MS = 500;

    private static TestingServer zk;

    private ZkIonTestConfigurator() {
    }

    public static synchronized String connectString() {
        if (zk == null) {
            try {
                zk = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1), true);
            }
            catch (Exception e) {
                throw new IllegalStateException("Cannot start the ZooKeeper test server", e);
            }

            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    zk.close();
                }
                catch (Exception ignored) {
                    // Exiting.
                }
            }));
        }

        return zk.getConnectString();
    }

    /** Called by Ignite's GridAbstractTest for every configuration it builds. */
    public static void preprocessConfiguration(IgniteConfiguration cfg) {
        if (cfg.getDiscoverySpi() instanceof ZkIonDiscoverySpi)
            return;

        cfg.setDiscoverySpi(configure(TestSpis.create(), cfg));
    }

    /** Points {@code spi} at the test server, with a session timeout from the node's failure detection timeout. */
    public static ZkIonDiscoverySpi configure(ZkIonDiscoverySpi spi, IgniteConfiguration cfg) {
        long fdt = cfg.getFailureDetectionTimeout() == null ? 10_000 : cfg.getFailureDetectionTimeout();

        return spi
            .setZkConnectionString(connectString())
            .setZkRootPath("/ignite-tests")
            // Within what the server allows: 2 to 20 ticks.
            .setSessionTimeout(Math.max(2 * TICK_MS, Math.min(fdt, 20 * TICK_MS)));
    }
}
