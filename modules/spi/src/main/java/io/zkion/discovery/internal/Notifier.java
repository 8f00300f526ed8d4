package io.zkion.discovery.internal;

import java.util.Collection;
import java.util.Collections;
import java.util.function.Supplier;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.events.DiscoveryCustomEvent;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;

/**
 * Hands events to Ignite's discovery listener, one at a time, on the discovery thread. Membership events
 * wait for the listener's future, as Ignite expects; a custom message waits only when it is mutable. Once Ignite has
 * set the listener to null (its discovery manager stops, and cancels the worker that would run what is handed on),
 * nothing is handed on.
 */
public final class Notifier {
    private final Supplier<DiscoverySpiListener> lsnr;
    private final IgniteLogger log;
    private final DiscoveryMetrics metrics;
    private volatile InternalMessage.Sink internal = InternalMessage.Sink.NONE;

    public Notifier(Supplier<DiscoverySpiListener> lsnr, IgniteLogger log, DiscoveryMetrics metrics) {
        this.lsnr = lsnr;
        this.log = log;
        this.metrics = metrics;
    }

    /** Sets where ZkIon's own messages go, instead of Ignite's listener. */
    public void internal(InternalMessage.Sink sink) {
        internal = sink;
    }

    /**
     * @return Whether Ignite still listens: false once its discovery manager began to stop, when what is handed on
     *      may never run.
     */
    public boolean listening() {
        return lsnr.get() != null;
    }

    public void joined(long topVer, ClusterNode node, Collection<ClusterNode> snapshot) {
        metrics.onJoined();
        notify(EventType.EVT_NODE_JOINED, topVer, node, snapshot, null, true);
    }

    public void left(long topVer, ClusterNode node, Collection<ClusterNode> snapshot) {
        metrics.onLeft();
        internal.onDeparture();
        notify(EventType.EVT_NODE_LEFT, topVer, node, snapshot, null, true);
    }

    public void failed(long topVer, ClusterNode node, Collection<ClusterNode> snapshot) {
        metrics.onFailed();
        internal.onDeparture();
        notify(EventType.EVT_NODE_FAILED, topVer, node, snapshot, null, true);
    }

    /** @return The listener's future, already complete when the message is mutable; null for ZkIon's own. */
    public IgniteFuture<?> custom(long topVer, ClusterNode sender, Collection<ClusterNode> snapshot,
        DiscoverySpiCustomMessage msg) {
        if (msg instanceof InternalMessage) {
            internal.onLogged(topVer, snapshot, (InternalMessage)msg);
            return null;
        }

        metrics.onCustom();

        return notify(DiscoveryCustomEvent.EVT_DISCOVERY_CUSTOM_EVT, topVer, sender, snapshot, msg, msg.isMutable());
    }

    public void segmented(long topVer, ClusterNode local, Collection<ClusterNode> snapshot) {
        notify(EventType.EVT_NODE_SEGMENTED, topVer, local, snapshot, null, true);
    }

    public void disconnected(long topVer, ClusterNode local, Collection<ClusterNode> snapshot) {
        notify(EventType.EVT_CLIENT_NODE_DISCONNECTED, topVer, local, snapshot, null, true);
    }

    public void reconnected(long topVer, ClusterNode local, Collection<ClusterNode> snapshot) {
        notify(EventType.EVT_CLIENT_NODE_RECONNECTED, topVer, local, snapshot, null, true);
    }

    private IgniteFuture<?> notify(int type, long topVer, ClusterNode node, Collection<ClusterNode> snapshot,
        DiscoverySpiCustomMessage msg, boolean await) {
        if (log.isDebugEnabled())
            log.debug("Discovery notification [type=" + type + ", topVer=" + topVer + ", node=" + node.id() + ']');

        DiscoverySpiListener l = lsnr.get();

        if (l == null)
            return null; // Ignite stops: nobody runs it.

        // Ignite keeps its own bounded history for SPIs that declare history support; an empty map is enough.
        IgniteFuture<?> fut = l.onDiscovery(new DiscoveryNotification(type, topVer, node, snapshot,
            Collections.emptyNavigableMap(), msg, null));

        if (await && fut != null)
            fut.get();

        return fut;
    }
}
