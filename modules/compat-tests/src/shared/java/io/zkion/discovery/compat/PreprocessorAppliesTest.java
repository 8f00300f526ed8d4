package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.Ignite;
import org.apache.ignite.testframework.junits.common.GridCommonAbstractTest;
import org.junit.Test;

/**
 * Ignite's own tests in this module only prove something if they run on our SPI: the preprocessor must have
 * replaced the discovery SPI of every node Ignite's test framework starts.
 */
public class PreprocessorAppliesTest extends GridCommonAbstractTest {
    @Test public void everyNodeRunsOnZkIonDiscovery() throws Exception {
        startGrids(2);

        Ignite client = startClientGrid(2);

        for (Ignite n : new Ignite[] {grid(0), grid(1), client}) {
            assertTrue(n.name(), n.configuration().getDiscoverySpi() instanceof ZkIonDiscoverySpi);
            assertEquals(n.name(), 3, n.cluster().nodes().size());
        }
    }

    /** The ensemble is the one {@code -Dzkion.compat.ensemble} asked for, and every node asks for its session timeout. */
    @Test public void everyNodeRunsOnTheEnsembleAskedFor() throws Exception {
        startGrids(2);

        Ignite client = startClientGrid(2);
        String[] servers = ZkIonTestConfigurator.connectString().split(",");

        assertEquals(ZkIonTestConfigurator.clusterMode() ? ZkIonTestConfigurator.CLUSTER_SERVERS : 1, servers.length);

        for (Ignite n : new Ignite[] {grid(0), grid(1), client}) {
            ZkIonDiscoverySpi spi = (ZkIonDiscoverySpi)n.configuration().getDiscoverySpi();

            assertEquals(n.name(), ZkIonTestConfigurator.connectString(), spi.getZkConnectionString());

            if (ZkIonTestConfigurator.clusterMode())
                assertEquals(n.name(), ZkIonTestConfigurator.CLUSTER_SESSION_TIMEOUT_MS, spi.getSessionTimeout());
        }
    }

    @Override protected void afterTest() throws Exception {
        stopAllGrids();
    }
}
