package io.zkion.discovery.bench.sidebyside;

import java.util.Collections;
import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.ipfinder.vm.TcpDiscoveryVmIpFinder;
import org.apache.ignite.spi.discovery.zk.ZookeeperDiscoverySpi;

/** The three discovery SPIs compared, configured alike: same ZooKeeper, same session / failure timeout. */
enum SpiKind {
    ZKION {
        @Override DiscoverySpi create(String zk, String root, int timeout) {
            return new MeteredZkIon().setZkConnectionString(zk).setZkRootPath(root).setSessionTimeout(timeout);
        }
    },
    STOCK_ZK {
        @Override DiscoverySpi create(String zk, String root, int timeout) {
            ZookeeperDiscoverySpi spi = new MeteredStock();

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

            return new MeteredTcp().setIpFinder(finder).setLocalAddress("127.0.0.1").setLocalPort(47500)
                .setLocalPortRange(20);
        }
    };

    abstract DiscoverySpi create(String zk, String root, int timeout);

    /** @return What the harness watches inside this SPI instance. */
    static SpiMeter meter(DiscoverySpi spi) {
        return ((SpiMeter.Metered)spi).meter();
    }

    /** @return What Ignite's listener allocated inline on the SPI's threads of this node so far. */
    static long listenerBytes(DiscoverySpi spi) {
        return meter(spi).listenerBytes();
    }

    boolean usesZooKeeper() {
        return this != TCP;
    }

    /**
     * The SPIs compared, each with its listener, stop and sends metered; nothing else differs. One line a method:
     * the three extend different classes, so only the calls to {@link SpiMeter} can be shared.
     */
    static final class MeteredZkIon extends ZkIonDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener l) { super.setListener(meter.wrap(l)); }
        @Override public void setDataExchange(DiscoverySpiDataExchange x) { super.setDataExchange(meter.wrap(x)); }
        @Override public void spiStop() { meter.stop(super::spiStop); }
        @Override public void sendCustomEvent(DiscoverySpiCustomMessage m) { meter.send(m, super::sendCustomEvent); }
        @Override public SpiMeter meter() { return meter; }
    }

    static final class MeteredStock extends ZookeeperDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener l) { super.setListener(meter.wrap(l)); }
        @Override public void setDataExchange(DiscoverySpiDataExchange x) { super.setDataExchange(meter.wrap(x)); }
        @Override public void spiStop() { meter.stop(super::spiStop); }
        @Override public void sendCustomEvent(DiscoverySpiCustomMessage m) { meter.send(m, super::sendCustomEvent); }
        @Override public SpiMeter meter() { return meter; }
    }

    static final class MeteredTcp extends TcpDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener l) { super.setListener(meter.wrap(l)); }
        @Override public void setDataExchange(DiscoverySpiDataExchange x) { super.setDataExchange(meter.wrap(x)); }
        @Override public void spiStop() { meter.stop(super::spiStop); }
        @Override public void sendCustomEvent(DiscoverySpiCustomMessage m) { meter.send(m, super::sendCustomEvent); }
        @Override public SpiMeter meter() { return meter; }
    }
}
