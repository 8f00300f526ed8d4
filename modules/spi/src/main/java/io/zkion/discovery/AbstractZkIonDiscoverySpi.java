package io.zkion.discovery;

import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.config.Codecs;
import io.zkion.discovery.config.DigestCredentials;
import io.zkion.discovery.config.LocalAddresses;
import io.zkion.discovery.config.ReleaseLineCheck;
import io.zkion.discovery.config.SettingsCheck;
import io.zkion.discovery.config.StartReport;
import io.zkion.discovery.config.ZooKeeperConnector;
import io.zkion.discovery.coordinator.SharedCommon;
import io.zkion.discovery.internal.AckPolicy;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.InternalListenerHooks;
import io.zkion.discovery.resolve.Rounds;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.engine.NodeEngine;
import io.zkion.discovery.internal.TestSeam;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.ignite.IgniteException;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.IgniteDiscoverySpi;
import org.apache.ignite.internal.processors.metric.MetricRegistryImpl;
import org.apache.ignite.internal.util.typedef.internal.U;
import org.apache.ignite.lang.IgniteProductVersion;
import org.apache.ignite.resources.LoggerResource;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoveryMetricsProvider;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;

import static org.apache.ignite.internal.managers.discovery.GridDiscoveryManager.DISCO_METRICS;
import static org.apache.ignite.internal.processors.metric.impl.MetricUtils.metricName;

/**
 * Everything of {@link ZkIonDiscoverySpi} that is the same on every Ignite line: configuration, lifecycle
 * and the discovery contract, delegated to {@link NodeEngine}. The concrete class, one per Ignite
 * line, adds what a line's {@code IgniteDiscoverySpi} declares beyond this.
 */
public abstract class AbstractZkIonDiscoverySpi extends ZkIonSpiSettings implements IgniteDiscoverySpi {
    /** ZooKeeper's own default for {@code jute.maxbuffer}. */
    public static final int ZK_DFLT_MAX_BUFFER = 0xfffff;

    @LoggerResource
    protected IgniteLogger log;

    private transient Map<String, Object> locNodeAttrs;
    private transient IgniteProductVersion locNodeVer;
    private transient volatile DiscoverySpiListener lsnr;
    private transient DiscoverySpiDataExchange exchange;
    private transient DiscoveryMetricsProvider metricsProvider;
    private transient DiscoverySpiNodeAuthenticator auth;
    private transient Serializable consistentId;
    private transient ZkIonClusterNode locNode;
    private transient CuratorFramework client;
    private transient volatile NodeEngine engine;
    private transient volatile InternalListenerHooks hooks;
    private transient volatile ZkFaults zkFaults;
    private transient volatile Runnable afterJoinRequest;
    /** Made on first use: an SPI shipped to another JVM (multi-JVM tests) comes back without its initialisers run. */
    private transient DiscoveryMetrics metrics;

    // ---- What ZooKeeper granted (the settings are in ZkIonSpiSettings).

    /** @return The session timeout ZooKeeper granted (the servers bound it), in ms; 0 while not connected. */
    public long getZkSessionTimeout() {
        CuratorFramework c = client;

        try {
            return c == null ? 0 : c.getZookeeperClient().getZooKeeper().getSessionTimeout();
        }
        catch (Exception e) {
            return 0;
        }
    }

    // ---- Lifecycle.

    @Override public void spiStart(String igniteInstanceName) throws IgniteSpiException {
        startStopwatch();

        long sesTimeout = new SettingsCheck(getZkConnectionString(), getZkRootPath(), getSessionTimeout(),
            getJoinTimeout(), getMaxInflatedBytes(), getEventFormats()).sessionTimeout(ignite.configuration().getFailureDetectionTimeout());

        locNode = createLocalNode();
        lsnr.onLocalNodeInitialized(locNode);

        ZooKeeperConnector zc = new ZooKeeperConnector(getZkConnectionString(), sesTimeout,
            DigestCredentials.resolve(digestAuth()), ignite == null ? null : ignite.name(), log)
            .clientProperties(getZkClientProperties()).readAccess(getZkRootPath(), getZkReadAccess());

        client = zc.connect();

        if (!zc.creatorOnly())
            log.warning(DigestCredentials.openWarning(getZkRootPath(), ((IgniteEx)ignite).context().security().enabled()));

        if (!zc.creatorOnly() && getZkReadAccess() != null)
            log.warning("zkReadAccess has no effect: without zkDigestAuth or a SASL login every znode is open already");

        int limit = getZkRequestSizeLimit() > 0 ? getZkRequestSizeLimit() : Integer.getInteger("jute.maxbuffer", ZK_DFLT_MAX_BUFFER);
        Codecs codecs = new Codecs(getEventFormats(), getMaxInflatedBytes(),
            ((IgniteEx)ignite).context().marshallerContext().jdkMarshaller(), U.resolveClassLoader(ignite.configuration()));
        String otherLines = ReleaseLineCheck.warning(client, getZkRootPath(), codecs.control, BuildInfo.release());

        if (otherLines != null)
            log.warning(otherLines);

        DiscoveryHost host = new SpiHost(log, () -> lsnr, exchange, auth, this::getSpiContext, () -> locNodeAttrs,
            ignite == null ? null : ignite.name(), new IgniteCommunication((IgniteEx)ignite));

        engine = new NodeEngine(client, getZkRootPath(), limit, codecs.formats, codecs.control, codecs.objects, host, locNode,
            getJoinTimeout(), !isClientReconnectDisabled(), discoveryMetrics());
        engine.hooks(hooks);
        engine.zkFaultsForTest(zkFaults);
        engine.afterJoinRequestForTest(afterJoinRequest);

        try {
            engine.start();
        }
        catch (RuntimeException e) {
            stopQuietly();
            throw e;
        }

        registerMBean(igniteInstanceName, new SpiMBean(this), ZkIonDiscoverySpiMBean.class);

        if (log.isInfoEnabled())
            log.info(startedMessage(zc.report(), sesTimeout));
    }

    private ZkIonClusterNode createLocalNode() {
        LocalAddresses a = localAddresses();

        return ZkIonClusterNode.local(ignite.configuration().getNodeId(), consistentId(), locNodeVer, locNodeAttrs,
            a.addrs, a.hostNames, Boolean.TRUE.equals(ignite.configuration().isClientMode()), metricsProvider);
    }

    private LocalAddresses localAddresses() {
        return LocalAddresses.resolve(ignite == null ? null : ignite.configuration().getLocalHost());
    }

    private String startedMessage(StartReport report, long asked) {
        return "ZkIonDiscoverySpi started [node=" + locNode.id() + ", order=" + locNode.order() + ", "
            + report.describe(asked, getZkSessionTimeout()) + ", zk=" + getZkConnectionString() + ", root=" + getZkRootPath() + (isZkDigestAuthSet() ? ", acl=creator-only" : "")
            + ", topology=" + engine.topology().size() + " node(s)]";
    }

    @Override public void spiStop() throws IgniteSpiException {
        unregisterMBean();
        stopQuietly();
    }

    private void stopQuietly() {
        // An interrupted start ends here too: cleared for the stop's bounded waits, then set again.
        boolean interrupted = Thread.interrupted();
        NodeEngine e = engine;

        if (e != null)
            e.stop();

        if (client != null)
            ZooKeeperConnector.close(client, ignite == null ? null : ignite.name());

        engine = null;
        client = null;

        if (interrupted)
            Thread.currentThread().interrupt();
    }

    /** Runs {@code a} on this node's engine, if it is started. */
    private void onEngine(Consumer<NodeEngine> a) {
        NodeEngine e = engine;

        if (e != null)
            a.accept(e);
    }

    @Override protected void onContextDestroyed0() {
        onEngine(NodeEngine::contextDestroyed); // Ignite stops this node, its communication not yet.
    }

    @Override protected void onContextInitialized0(IgniteSpiContext spiCtx) throws IgniteSpiException {
        onEngine(e -> e.contextInitialized(spiCtx)); // The outage guard asks and answers peers through the real context.

        try {
            discoveryMetrics().register((MetricRegistryImpl)spiCtx.getOrCreateMetricRegistry(DISCO_METRICS),
                (MetricRegistryImpl)spiCtx.getOrCreateMetricRegistry(metricName(DISCO_METRICS, "zkion")), () -> {
                    NodeEngine e = engine;
                    return e == null ? 0 : e.topology().topVer();
                }, () -> {
                    NodeEngine e = engine;
                    ClusterNode c = e == null ? null : e.coordinator();
                    return c == null ? null : c.id();
                }, () -> {
                    NodeEngine e = engine;
                    return e == null ? 0 : e.pendingEntries();
                });
        }
        catch (RuntimeException e) {
            log.warning("ZkIon discovery metrics are not available: " + e);
        }
    }

    // ---- The discovery contract.

    @Override public Serializable consistentId() throws IgniteSpiException {
        // Ignite asks before it sets the attributes (its persistence settings first); the kernal has the port by then.
        if (consistentId == null) {
            consistentId = localAddresses().consistentId(ignite.configuration(),
                locNodeAttrs != null ? locNodeAttrs : ((IgniteEx)ignite).context().nodeAttributes());
        }

        return consistentId;
    }

    @Override public Collection<ClusterNode> getRemoteNodes() {
        NodeEngine e = engine;

        return e == null ? Collections.emptyList() : e.remoteNodes();
    }

    @Override public ClusterNode getLocalNode() {
        return locNode;
    }

    @Override public ClusterNode getNode(UUID nodeId) {
        NodeEngine e = engine;

        return e == null ? null : e.topology().node(nodeId);
    }

    @Override public boolean pingNode(UUID nodeId) {
        NodeEngine e = engine;

        return e != null && e.pingNode(nodeId);
    }

    @Override public void setNodeAttributes(Map<String, Object> attrs, IgniteProductVersion ver) {
        locNodeAttrs = SharedCommon.withCapability(AckPolicy.withCapability(Rounds.withCapability(attrs)));
        locNodeVer = ver;
    }

    @Override public void setListener(DiscoverySpiListener lsnr) {
        this.lsnr = lsnr;
    }

    @Override public void setDataExchange(DiscoverySpiDataExchange exchange) {
        this.exchange = exchange;
    }

    @Override public void setMetricsProvider(DiscoveryMetricsProvider metricsProvider) {
        this.metricsProvider = metricsProvider;
    }

    @Override public void disconnect() throws IgniteSpiException {
        stopQuietly();
    }

    @Override public void setAuthenticator(DiscoverySpiNodeAuthenticator auth) {
        this.auth = auth;
    }

    @Override public long getGridStartTime() {
        NodeEngine e = engine;

        return e == null ? 0 : e.gridStartTime();
    }

    @Override public void sendCustomEvent(DiscoverySpiCustomMessage msg) throws IgniteException {
        NodeEngine e = engine;

        if (e == null)
            throw new IgniteException("Failed to send a custom message: ZkIonDiscoverySpi is not started");

        e.sendCustom(msg);
    }

    @Override public void failNode(UUID nodeId, String warning) {
        onEngine(e -> e.failNode(nodeId, warning));
    }

    @Override public boolean isClientMode() throws IllegalStateException {
        return Boolean.TRUE.equals(ignite.configuration().isClientMode());
    }

    @Override public boolean knownNode(UUID nodeId) {
        NodeEngine e = engine;

        return e != null && e.knownNode(nodeId);
    }

    @Override public boolean clientReconnectSupported() {
        return !isClientReconnectDisabled();
    }

    @Override public void clientReconnect() {
        onEngine(NodeEngine::clientReconnect);
    }

    /** Drops this node's ZooKeeper session without leaving: the others see it fail, and it is segmented. */
    @Override public void simulateNodeFailure() {
        onEngine(NodeEngine::simulateFailure);
    }

    /** True: Ignite then installs its default resolver when none is configured (docs/design.md, "Split brain"). */
    @Override public boolean supportsCommunicationFailureResolve() {
        return true;
    }

    /**
     * Blocks until a communication-failure round decided on {@code node}: returns if it stays, throws Ignite's "node
     * failed" if it was removed. A client peer gives no round.
     */
    @Override public void resolveCommunicationFailure(ClusterNode node, Exception err) {
        NodeEngine e = engine;

        if (e == null)
            throw new IgniteSpiException("ZkIonDiscoverySpi is not started");

        e.resolveCommunicationFailure(node, err);
    }

    /** Installs test hooks; the 2.17 SPI adapts Ignite's internal listener to them. */
    @TestSeam
    protected void testHooks(InternalListenerHooks hooks) {
        this.hooks = hooks;
        onEngine(e -> e.hooks(hooks));
    }

    /** Injects faults into this node's commits, from its start on. */
    @TestSeam
    public ZkIonDiscoverySpi setZkFaultsForTest(ZkFaults faults) {
        zkFaults = faults;
        return self();
    }

    /** Runs {@code hook} on the discovery thread once this node's join request is written, before the answer. */
    @TestSeam
    public ZkIonDiscoverySpi setAfterJoinRequestForTest(Runnable hook) {
        afterJoinRequest = hook;
        return self();
    }

    /** @return The engine, for diagnostics (the Ion dump) and tests; null when stopped. */
    public NodeEngine engine() {
        return engine;
    }

    /** @return Discovery counters of this node. */
    public synchronized DiscoveryMetrics discoveryMetrics() {
        if (metrics == null)
            metrics = new DiscoveryMetrics();

        return metrics;
    }

}
