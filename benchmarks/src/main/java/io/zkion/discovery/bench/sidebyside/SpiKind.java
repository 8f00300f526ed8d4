package io.zkion.discovery.bench.sidebyside;

import java.util.Collections;
import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.ipfinder.vm.TcpDiscoveryVmIpFinder;
import org.apache.ignite.spi.discovery.zk.ZookeeperDiscoverySpi;

/** The three discovery SPIs compared, configured alike: same ZooKeeper, same session / failure timeout. */
enum SpiKind {
    ZKION {
        @Override DiscoverySpi create(String zk, String root, int timeout) {
            return new ZkIonDiscoverySpi().setZkConnectionString(zk).setZkRootPath(root).setSessionTimeout(timeout);
        }
    },
    STOCK_ZK {
        @Override DiscoverySpi create(String zk, String root, int timeout) {
            ZookeeperDiscoverySpi spi = new ZookeeperDiscoverySpi();

            spi.setZkConnectionString(zk);
            spi.setZkRootPath(root);
            spi.setSessionTimeout(timeout);

            return spi;
        }
    },
    TCP {
        @Override DiscoverySpi create(String zk, String root, int timeout) {
            TcpDiscoveryVmIpFinder finder = new TcpDiscoveryVmIpFinder(true);

            finder.setAddresses(Collections.singletonList("127.0.0.1:47500..47520"));

            return new TcpDiscoverySpi().setIpFinder(finder).setLocalAddress("127.0.0.1").setLocalPort(47500)
                .setLocalPortRange(20);
        }
    };

    abstract DiscoverySpi create(String zk, String root, int timeout);

    boolean usesZooKeeper() {
        return this != TCP;
    }
}
