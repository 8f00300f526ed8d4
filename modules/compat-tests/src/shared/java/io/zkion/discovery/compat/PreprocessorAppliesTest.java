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

    @Override protected void afterTest() throws Exception {
        stopAllGrids();
    }
}
