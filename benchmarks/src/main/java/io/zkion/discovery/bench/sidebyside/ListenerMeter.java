package io.zkion.discovery.bench.sidebyside;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;

/**
 * Counts what Ignite's own discovery listener allocates on the thread an SPI calls it from. Every SPI runs part
 * of Ignite's event handling inline, on its own thread; subtracting this leaves what the SPI itself allocates.
 */
final class ListenerMeter {
    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final LongAdder bytes = new LongAdder();

    /** An SPI whose listener is metered. */
    interface Metered {
        ListenerMeter meter();
    }

    long bytes() {
        return bytes.sum();
    }

    DiscoverySpiListener wrap(DiscoverySpiListener l) {
        if (l == null)
            return null;

        return new DiscoverySpiListener() {
            @Override public void onLocalNodeInitialized(ClusterNode locNode) {
                l.onLocalNodeInitialized(locNode);
            }

            @Override public IgniteFuture<?> onDiscovery(DiscoveryNotification n) {
                long before = MX.getThreadAllocatedBytes(Thread.currentThread().getId());

                try {
                    return l.onDiscovery(n);
                }
                finally {
                    bytes.add(MX.getThreadAllocatedBytes(Thread.currentThread().getId()) - before);
                }
            }
        };
    }
}
