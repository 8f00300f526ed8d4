package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;

/**
 * Ignite's configuration preprocessor hook ({@code -Dignite.cfg.preprocessor.class}): every node that
 * Ignite's own tests start gets ZkIonDiscoverySpi, on a ZooKeeper ensemble started once per JVM.
 *
 * <p>{@code -Dzkion.compat.ensemble} picks the ensemble:
 * <ul>
 * <li>{@code server} (the default, what CI runs): one test server with short ticks, and a session timeout that
 * follows the test's failure detection timeout, so that tests which kill nodes see them fail within seconds;</li>
 * <li>{@code cluster}: the set-up Ignite's stock ZooKeeper SPI runs these tests in, a 3-server curator-test
 * {@code TestingCluster} with curator-test's defaults and a 30 s session timeout on every node (the servers grant
 * at most 20 ticks, so what a node runs with is the grant, as with the stock SPI), and the test's
 * {@code clientReconnectDisabled} carried over from the TcpDiscoverySpi it replaces.</li>
 * </ul>
 */
public final class ZkIonTestConfigurator {
    /** The system property that picks the ensemble. */
    public static final String ENSEMBLE_PROPERTY = "zkion.compat.ensemble";

    /** Short ticks, so that the session timeouts Ignite's tests use (1 to 10 s) are all accepted. */
    private static final int TICK_MS = 500;

    /** The session timeout every node asks for in the cluster mode. */
    static final long CLUSTER_SESSION_TIMEOUT_MS = 30_000;

    /** The servers of the cluster mode. */
    static final int CLUSTER_SERVERS = 3;

    /** The ensemble of this JVM, started by the first node that needs it. */
    private static AutoCloseable ensemble;

    private static String connectString;

    private ZkIonTestConfigurator() {
    }

    /** @return Whether this JVM runs the stock SPI's set-up: a 3-server cluster. */
    public static boolean clusterMode() {
        String mode = System.getProperty(ENSEMBLE_PROPERTY, "server").trim();

        switch (mode) {
            case "server":
                return false;
            case "cluster":
                return true;
            default:
                throw new IllegalArgumentException("-D" + ENSEMBLE_PROPERTY + "=" + mode
                    + ": expected \"server\" (one test server, the default) or \"cluster\" (3 servers)");
        }
    }

    /** @return The connect string of this JVM's ensemble, which the first call starts. */
    public static synchronized String connectString() {
        if (ensemble == null) {
            try {
                if (clusterMode()) {
                    TestingCluster cluster = new TestingCluster(CLUSTER_SERVERS);

                    cluster.start();
                    ensemble = cluster;
                    connectString = cluster.getConnectString();
                }
                else {
                    TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, -1),
                        true);

                    ensemble = server;
                    connectString = server.getConnectString();
                }
            }
            catch (Exception e) {
                throw new IllegalStateException("Cannot start the ZooKeeper test ensemble", e);
            }

            AutoCloseable started = ensemble;

            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                }
                catch (Exception ignored) {
                    // Exiting.
                }
            }, "zkion-test-ensemble-close"));
        }

        return connectString;
    }

    /** Called by Ignite's GridAbstractTest for every configuration it builds. */
    public static void preprocessConfiguration(IgniteConfiguration cfg) {
        if (cfg.getDiscoverySpi() instanceof ZkIonDiscoverySpi)
            return;

        cfg.setDiscoverySpi(configure(TestSpis.create(), cfg));
    }

    /**
     * Points {@code spi} at the test ensemble, with the session timeout of the mode: 30 s on the cluster, as the
     * stock SPI's configurator sets it; else from the node's failure detection timeout, within the server's bounds.
     */
    public static ZkIonDiscoverySpi configure(ZkIonDiscoverySpi spi, IgniteConfiguration cfg) {
        DiscoverySpi replaced = cfg.getDiscoverySpi();

        spi.setZkConnectionString(connectString())
            .setZkRootPath("/ignite-tests");

        if (clusterMode()) {
            spi.setSessionTimeout(CLUSTER_SESSION_TIMEOUT_MS);

            if (replaced instanceof TcpDiscoverySpi)
                spi.setClientReconnectDisabled(((TcpDiscoverySpi)replaced).isClientReconnectDisabled());
        }
        else {
            long fdt = cfg.getFailureDetectionTimeout() == null ? 10_000 : cfg.getFailureDetectionTimeout();

            // Within what the server allows: 2 to 20 ticks.
            spi.setSessionTimeout(Math.max(2 * TICK_MS, Math.min(fdt, 20 * TICK_MS)));
        }

        return spi;
    }
}
