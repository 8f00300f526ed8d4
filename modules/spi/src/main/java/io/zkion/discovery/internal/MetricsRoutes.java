package io.zkion.discovery.internal;

import java.util.Collection;
import java.util.Map;
import org.apache.ignite.cluster.ClusterNode;

/**
 * Who gets which node metrics on the 2.18 line's exchange ({@code MetricsExchange}, issue 20). Each node sends its own
 * to the coordinator, and the coordinator relays everyone's to every node once a period: 2N messages a period, where
 * every node sending to every other sent N². The bytes stay N² (each node still receives every node's metrics once a
 * period, now in one message), as in Ignite's own exchange for such SPIs; they now all leave the coordinator.
 * <p>
 * A node of a release without the relay (no {@link #CAPABILITY}) gets every node's own metrics directly, as it
 * expects; under such a coordinator every node sends to every other, as before.
 */
public final class MetricsRoutes {
    /** Says a node, as coordinator, relays metrics, and takes them relayed. */
    private static final NodeCapability CAPABILITY = new NodeCapability("io.zkion.discovery.metricsRelay", 1);

    /** What a node sends another in one period. */
    public enum Route {
        /** Its own metrics. */
        OWN,

        /** Every node's metrics, as the coordinator last had them. */
        RELAYED,

        /** Nothing: the coordinator relays this node's metrics to it. */
        NONE
    }

    private MetricsRoutes() {
    }

    /** @return What {@code local} sends {@code to} when {@code crd} coordinates (null: none known). */
    public static Route route(ClusterNode local, ClusterNode crd, ClusterNode to) {
        if (crd == null || !relays(crd))
            return Route.OWN;

        if (crd.id().equals(local.id()))
            return relays(to) ? Route.RELAYED : Route.OWN;

        return to.id().equals(crd.id()) || !relays(to) ? Route.OWN : Route.NONE;
    }

    /** @return The coordinator among {@code nodes}: the oldest server; null if there is none. */
    public static ClusterNode coordinator(Collection<? extends ClusterNode> nodes) {
        ClusterNode crd = null;

        for (ClusterNode n : nodes) {
            if (!n.isClient() && (crd == null || n.order() < crd.order()))
                crd = n;
        }

        return crd;
    }

    public static boolean relays(ClusterNode n) {
        return CAPABILITY.of(n);
    }

    /** @return {@code attrs} with the attribute that says this node relays metrics as coordinator. */
    public static Map<String, Object> withCapability(Map<String, Object> attrs) {
        return CAPABILITY.advertise(attrs);
    }
}
