package io.zkion.discovery;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.ignite.Ignite;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.configuration.CacheConfiguration;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** One ZooKeeper server of three stops while custom events flow: the cluster goes on. */
public class EnsembleTest extends ZkIonTestSupport {
    private TestingCluster ensemble;

    @Override protected ZkIonDiscoverySpi spi() {
        return super.spi().setZkConnectionString(ensemble.getConnectString());
    }

    @Test(timeout = 240_000) public void clusterSurvivesLossOfOneZooKeeperServer() throws Exception {
        ensemble = new TestingCluster(3);
        ensemble.start();

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c = startClient("c1");

        for (int i = 0; i < 20; i++) {
            if (i == 8) {
                InstanceSpec victim = ensemble.getInstances().iterator().next();

                assertTrue(ensemble.killServer(victim));
            }

            // Each cache creation is a custom discovery event and an exchange.
            c.getOrCreateCache(new CacheConfiguration<>("e" + i).setAffinity(new RendezvousAffinityFunction(false, 16)));
        }

        for (Ignite n : new Ignite[] {s1, s2, c}) {
            for (int i = 0; i < 20; i++)
                assertTrue(n.name() + " e" + i, n.cacheNames().contains("e" + i));

            assertEquals(3, n.cluster().nodes().size());
        }
    }

    /**
     * How Ignite's own test configurator runs the stock SPI: sessionTimeout 30 s on a 3-server TestingCluster with
     * curator-test's defaults. The servers may grant another timeout; the nodes run with the one granted.
     */
    @Test(timeout = 120_000) public void thirtySecondSessionsOnATestingClusterRunAsGranted() throws Exception {
        ensemble = new TestingCluster(3);
        ensemble.start();

        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setSessionTimeout(30_000)));
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi().setSessionTimeout(30_000)));

        assertEquals(2, s1.cluster().nodes().size());
        assertEquals(2, s2.cluster().nodes().size());
        assertTrue(spiOf(s2).getZkSessionTimeout() > 0);
    }

    @After public void stopEnsemble() throws Exception {
        stopAll();

        if (ensemble != null)
            ensemble.close();
    }
}
