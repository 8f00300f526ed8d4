package io.zkion.discovery.examples;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/**
 * A node in its own JVM for {@link ClasspathBesideStockTest}: joins the cluster at {@code args[0]}, {@code args[1]},
 * says where its SPI, Curator and Guava came from, and that it saw {@code args[2]} nodes, then stops.
 */
public final class BesideStockNode {
    public static void main(String[] args) throws Exception {
        System.setProperty("IGNITE_QUIET", "true");
        System.setProperty("IGNITE_UPDATE_NOTIFIER", "false");

        // The stock SPI is on the class path too, as in an Ignite distribution's libs/ with ignite-zookeeper.
        Class.forName("org.apache.ignite.spi.discovery.zk.ZookeeperDiscoverySpi");
        System.out.println("stock SPI present");
        System.out.println("SPI from " + ZkIonDiscoverySpi.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("Guava from " + Class.forName("com.google.common.base.Preconditions").getProtectionDomain()
            .getCodeSource().getLocation());
        System.out.println("ZooKeeper from " + Class.forName("org.apache.zookeeper.ZooKeeper").getProtectionDomain()
            .getCodeSource().getLocation());

        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        IgniteConfiguration cfg = new IgniteConfiguration().setIgniteInstanceName("beside-stock")
            .setLocalHost("127.0.0.1").setCommunicationSpi(comm)
            .setDataStorageConfiguration(new DataStorageConfiguration().setDefaultDataRegionConfiguration(
                new DataRegionConfiguration().setName("default").setInitialSize(32L << 20).setMaxSize(64L << 20)))
            .setDiscoverySpi(new ZkIonDiscoverySpi().setZkConnectionString(args[0]).setZkRootPath(args[1])
                .setJoinTimeout(60_000));

        try (Ignite n = Ignition.start(cfg)) {
            System.out.println("JOINED, nodes " + n.cluster().nodes().size() + " of " + args[2]);
        }
    }
}
