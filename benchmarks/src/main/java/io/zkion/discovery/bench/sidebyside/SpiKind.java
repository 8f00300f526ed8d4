package io.zkion.discovery.bench.sidebyside;

import java.util.Collections;
import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
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

    /** The SPIs compared, each with its listener, stop and sends metered; nothing else differs. */
    static final class MeteredZkIon extends ZkIonDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener lsnr) {
            super.setListener(meter.wrap(lsnr));
        }

        @Override public void spiStop() {
            meter.onStopCalled();
            super.spiStop();
        }

        @Override public void sendCustomEvent(DiscoverySpiCustomMessage msg) {
            meter.onSend(msg);
            super.sendCustomEvent(msg);
        }

        @Override public SpiMeter meter() {
            return meter;
        }
    }

    static final class MeteredStock extends ZookeeperDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener lsnr) {
            super.setListener(meter.wrap(lsnr));
        }

        @Override public void spiStop() {
            meter.onStopCalled();
            super.spiStop();
        }

        @Override public void sendCustomEvent(DiscoverySpiCustomMessage msg) {
            meter.onSend(msg);
            super.sendCustomEvent(msg);
        }

        @Override public SpiMeter meter() {
            return meter;
        }
    }

    static final class MeteredTcp extends TcpDiscoverySpi implements SpiMeter.Metered {
        private final SpiMeter meter = new SpiMeter();

        @Override public void setListener(DiscoverySpiListener lsnr) {
            super.setListener(meter.wrap(lsnr));
        }

        @Override public void spiStop() {
            meter.onStopCalled();
            super.spiStop();
        }

        @Override public void sendCustomEvent(DiscoverySpiCustomMessage msg) {
            meter.onSend(msg);
            super.sendCustomEvent(msg);
        }

        @Override public SpiMeter meter() {
            return meter;
        }
    }
}
