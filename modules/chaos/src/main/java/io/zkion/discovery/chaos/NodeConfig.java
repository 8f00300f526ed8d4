package io.zkion.discovery.chaos;

import io.zkion.discovery.ZkIonDiscoverySpi;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.ignite.cache.CacheAtomicityMode;
import org.apache.ignite.cache.CacheWriteSynchronizationMode;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.failure.StopNodeFailureHandler;
import org.apache.ignite.plugin.segmentation.SegmentationPolicy;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/** The configuration of a chaos node: small, so that 8 of them and an ensemble share 2 cores. */
final class NodeConfig {
    /** The cache the clients write to and read back. */
    static final String CACHE = "chaos";

    /** Few partitions: rebalancing after each fault is over in moments, and "fully replicated" is cheap to check. */
    static final int PARTITIONS = 64;

    /** The address the node binds and is reached at: loopback unless it runs on a host of its own ({@link NetLab}). */
    static final String HOST_PROPERTY = "zkion.chaos.host";

    private NodeConfig() {
    }

    /**
     * The cache the clients write and read. Reads go to the primary: Ignite 2.17 answers a read sent to a backup that
     * has not rebalanced yet from a copy its rebalance may clear first, null for a key that exists, whatever the
     * discovery SPI ({@code ReadBeforeRebalanceTest}). The run judges discovery, and a lost write still shows: the
     * backup's copy is read once it is the primary.
     */
    static CacheConfiguration<String, String> cache() {
        return new CacheConfiguration<String, String>(CACHE)
            .setBackups(1)
            .setAtomicityMode(CacheAtomicityMode.valueOf(System.getProperty("zkion.chaos.atomicity", "TRANSACTIONAL")))
            .setWriteSynchronizationMode(CacheWriteSynchronizationMode.FULL_SYNC)
            .setReadFromBackup(false)
            .setAffinity(new RendezvousAffinityFunction(false, PARTITIONS));
    }

    static IgniteConfiguration build(String name, boolean client, String zk, String root, int sessionTimeout,
        ZkFaults faults) {
        ZkIonDiscoverySpi spi = new ZkIonDiscoverySpi()
            .setZkConnectionString(zk)
            .setZkRootPath(root)
            .setSessionTimeout(sessionTimeout)
            .setZkFaultsForTest(faults);
        String formats = System.getProperty("zkion.chaos.eventFormats");

        // A node that reads fewer formats: the cluster writes the best one every node reads.
        if (formats != null)
            spi.setEventFormats(formats.split(","));

        DataStorageConfiguration storage = new DataStorageConfiguration().setDefaultDataRegionConfiguration(
            new DataRegionConfiguration().setName("default").setInitialSize(32L << 20).setMaxSize(64L << 20));

        String host = System.getProperty(HOST_PROPERTY, "127.0.0.1");
        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress(host);

        return new IgniteConfiguration()
            .setIgniteInstanceName(name)
            .setClientMode(client)
            .setLocalHost(host)
            .setDiscoverySpi(spi)
            .setCommunicationSpi(comm)
            .setDataStorageConfiguration(storage)
            .setCacheConfiguration(cache())
            .setFailureDetectionTimeout(sessionTimeout)
            .setClientFailureDetectionTimeout(sessionTimeout)
            .setMetricsLogFrequency(0)
            .setPublicThreadPoolSize(2)
            .setSystemThreadPoolSize(2)
            .setStripedPoolSize(2)
            .setQueryThreadPoolSize(1)
            .setServiceThreadPoolSize(1)
            .setDataStreamerThreadPoolSize(1)
            .setManagementThreadPoolSize(1)
            .setPeerClassLoadingEnabled(false)
            // A node out of the cluster stops, and its process exits (ChaosNode): it never lingers half-alive.
            .setSegmentationPolicy(SegmentationPolicy.STOP)
            .setFailureHandler(new StopNodeFailureHandler());
    }
}
