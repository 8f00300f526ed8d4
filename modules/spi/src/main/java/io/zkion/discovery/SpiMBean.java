package io.zkion.discovery;

import io.zkion.discovery.internal.DiscoveryMetrics;
import java.util.UUID;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.engine.NodeEngine;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.spi.IgniteSpiMBeanAdapter;

/** The SPI's management bean, answered from the running engine; "not started" or 0 while it is not running. */
final class SpiMBean extends IgniteSpiMBeanAdapter implements ZkIonDiscoverySpiMBean {
    private final AbstractZkIonDiscoverySpi spi;

    SpiMBean(AbstractZkIonDiscoverySpi spi) {
        super(spi);
        this.spi = spi;
    }

    @Override public String getSpiState() {
        NodeEngine e = spi.engine();

        return e == null ? "STOPPED" : e.state().name();
    }

    @Override public long getNodesJoined() {
        return spi.discoveryMetrics().joined();
    }

    @Override public long getNodesFailed() {
        return spi.discoveryMetrics().failed();
    }

    @Override public long getNodesLeft() {
        return spi.discoveryMetrics().left();
    }

    @Override public UUID getCoordinator() {
        ClusterNode c = coordinator();

        return c == null ? null : c.id();
    }

    @Override public String getCoordinatorNodeFormatted() {
        return String.valueOf(coordinator());
    }

    @Override public String getLocalNodeFormatted() {
        return String.valueOf(spi.getLocalNode());
    }

    /** Fails the node, server or client, as {@code failNode} does. */
    @Override public void excludeNode(String nodeId) {
        spi.failNode(UUID.fromString(nodeId), "excluded through JMX");
    }

    @Override public long getNodeOrder() {
        ClusterNode n = spi.getLocalNode();

        return n == null ? 0 : n.order();
    }

    @Override public String getZkConnectionString() {
        return spi.getZkConnectionString();
    }

    @Override public long getZkSessionTimeout() {
        return spi.getZkSessionTimeout();
    }

    @Override public String getZkSessionId() {
        NodeEngine e = spi.engine();

        return e == null ? "none" : e.sessionId();
    }

    @Override public long getCommErrorProcNum() {
        return spi.discoveryMetrics().communicationErrors();
    }

    @Override public String getZkRootPath() {
        return spi.getZkRootPath();
    }

    @Override public String getEventFormat() {
        GateState g = gate();

        return g == null ? "unknown" : g.format;
    }

    @Override public String getLogGate() {
        GateState g = gate();

        return g == null ? "unknown" : g.open ? "open" : "closed";
    }

    @Override public long getPendingLogEntries() {
        NodeEngine e = spi.engine();

        return e == null ? 0 : e.pendingEntries();
    }

    @Override public long getCoordinatorTakeovers() {
        return spi.discoveryMetrics().takeovers();
    }

    @Override public String getZkOutage() {
        NodeEngine e = spi.engine();
        DiscoveryMetrics m = spi.discoveryMetrics();
        String state = e == null ? "CONNECTED" : e.outageState();
        long since = m.outageSince();

        return since == 0 ? state : state + " for " + (System.currentTimeMillis() - since) + " ms, "
            + m.messagesHeldNow() + " custom message(s) held";
    }

    @Override public long getZkOutages() {
        return spi.discoveryMetrics().outages();
    }

    private ClusterNode coordinator() {
        NodeEngine e = spi.engine();

        return e == null ? null : e.coordinator();
    }

    private GateState gate() {
        NodeEngine e = spi.engine();

        try {
            return e == null ? null : e.gate();
        }
        catch (Exception ex) {
            return null; // ZooKeeper unreachable: the bean says "unknown" rather than fail the JMX call.
        }
    }
}
