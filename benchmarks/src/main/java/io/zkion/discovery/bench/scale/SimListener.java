package io.zkion.discovery.bench.scale;

import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.events.EventType;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;

/**
 * A member's stand-in for Ignite's discovery manager: it takes each event at once and tells the JVM's tally. Ignite
 * acks a message that needs it through the SPI, once every node processed it; a member does the same by returning.
 */
final class SimListener implements DiscoverySpiListener {
    private final JvmTally tally;
    private int size;
    private volatile long topVer;

    SimListener(JvmTally tally) {
        this.tally = tally;
    }

    @Override public void onLocalNodeInitialized(ClusterNode locNode) {
        // Nothing to do.
    }

    @Override public IgniteFuture<?> onDiscovery(DiscoveryNotification n) {
        topVer = n.getTopVer();

        if (n.getCustomMsgData() != null) {
            DiscoverySpiCustomMessage m = n.getCustomMsgData();

            if (m instanceof SimMessage)
                tally.message(((SimMessage)m).id);
            else if (m instanceof SimMessage.Ack)
                tally.ack(((SimMessage.Ack)m).id);
        }
        else if (n.type() == EventType.EVT_NODE_SEGMENTED) {
            synchronized (this) {
                tally.gone(size);
                size = 0;
            }
        }
        else if (n.getTopSnapshot() != null) {
            synchronized (this) {
                int was = size;

                size = n.getTopSnapshot().size();
                tally.sizeChanged(was, size);
            }
        }

        return null;
    }

    long topVer() {
        return topVer;
    }
}
