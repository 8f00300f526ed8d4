package io.zkion.discovery.examples;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.Ignition;
import org.apache.ignite.cluster.BaselineNode;
import org.apache.ignite.cluster.ClusterState;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.zk.ZookeeperDiscoverySpi;
import org.apache.ignite.internal.util.typedef.internal.U;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The migration README describes, run: two nodes with native persistence on the stock {@code ZookeeperDiscoverySpi}
 * write data and stop; the same nodes (same consistent ids and work directories) start on ZkIon, with a root of
 * their own, recognise their baseline topology and find every entry.
 */
public class MigrationTest {
    private static final int KEYS = 1_000;

    @Test(timeout = 240_000) public void aPersistentClusterMovesFromTheStockSpiToZkIon() throws Exception {
        File work = Files.createTempDirectory("zkion-migration").toFile();
        TestingServer zk = new TestingServer(true);

        try {
            List<Object> baseline = new ArrayList<>();

            // 1. On the stock SPI.
            List<Ignite> stock = startBoth(work, () -> {
                ZookeeperDiscoverySpi spi = new ZookeeperDiscoverySpi();

                spi.setZkConnectionString(zk.getConnectString());
                spi.setZkRootPath("/apacheIgnite");
                spi.setSessionTimeout(10_000);

                return spi;
            });

            stock.get(0).cluster().state(ClusterState.ACTIVE);

            IgniteCache<Integer, String> cache = stock.get(0).getOrCreateCache(
                new CacheConfiguration<Integer, String>("migrated").setBackups(1));

            for (int i = 0; i < KEYS; i++)
                cache.put(i, "v" + i);

            for (BaselineNode n : stock.get(0).cluster().currentBaselineTopology())
                baseline.add(n.consistentId());

            Ignition.stopAll(true);

            // 2. On ZkIon: the same nodes, their own root (a root holding the stock znodes is refused).
            List<Ignite> zkion = startBoth(work, () -> new ZkIonDiscoverySpi().setZkConnectionString(zk.getConnectString())
                .setZkRootPath("/zkion").setSessionTimeout(10_000));
            Ignite n = zkion.get(0);

            // A baseline that is whole again activates the cluster by itself.
            long end = System.currentTimeMillis() + 60_000;

            while (n.cluster().state() != ClusterState.ACTIVE && System.currentTimeMillis() < end)
                Thread.sleep(200);

            assertEquals("the cluster activates with its baseline", ClusterState.ACTIVE, n.cluster().state());

            List<Object> after = new ArrayList<>();

            for (BaselineNode b : n.cluster().currentBaselineTopology())
                after.add(b.consistentId());

            assertTrue("same baseline: " + baseline + " vs " + after, after.containsAll(baseline) && baseline.containsAll(after));

            IgniteCache<Integer, String> back = zkion.get(1).cache("migrated");

            for (int i = 0; i < KEYS; i++)
                assertEquals("key " + i, "v" + i, back.get(i));
        }
        finally {
            Ignition.stopAll(true); // Before ZooKeeper: the nodes leave as they would in service.
            zk.close();
            U.delete(work);
        }
    }

    private interface SpiFactory {
        DiscoverySpi create();
    }

    private static List<Ignite> startBoth(File work, SpiFactory spis) {
        List<Ignite> nodes = new ArrayList<>();

        for (int i = 1; i <= 2; i++)
            nodes.add(Ignition.start(config("node-" + i, work, spis.create())));

        return nodes;
    }

    private static IgniteConfiguration config(String name, File work, DiscoverySpi spi) {
        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        return new IgniteConfiguration().setIgniteInstanceName(name).setConsistentId(name)
            .setWorkDirectory(new File(work, name).getAbsolutePath()).setLocalHost("127.0.0.1")
            .setCommunicationSpi(comm).setDiscoverySpi(spi)
            .setDataStorageConfiguration(new DataStorageConfiguration().setWalSegmentSize(4 << 20).setWalSegments(2)
                .setDefaultDataRegionConfiguration(new DataRegionConfiguration().setName("default")
                    .setPersistenceEnabled(true).setInitialSize(32L << 20).setMaxSize(64L << 20)));
    }
}
