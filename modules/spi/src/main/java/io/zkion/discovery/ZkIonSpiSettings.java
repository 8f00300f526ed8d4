package io.zkion.discovery;

import java.util.Properties;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.config.ZooKeeperConnector;
import org.apache.ignite.spi.IgniteSpiAdapter;

/**
 * The settings of {@link ZkIonDiscoverySpi}, named and meant as on Ignite's stock {@code ZookeeperDiscoverySpi}, with
 * ZkIon's own beside them: what an operator sets, apart from what the SPI does with it.
 */
public abstract class ZkIonSpiSettings extends IgniteSpiAdapter {
    /** Default root, the same as Ignite's stock ZooKeeper SPI. */
    public static final String DFLT_ROOT_PATH = "/apacheIgnite";

    private String zkConnectionString;
    private String zkRootPath = DFLT_ROOT_PATH;
    private long sessionTimeout;
    private long joinTimeout;
    private boolean clientReconnectDisabled;
    private int zkRequestSizeLimit;
    private long maxInflatedBytes = StreamingZip.DEFAULT_MAX_INFLATED_BYTES;
    private String[] eventFormats = {FormatId.ION_2.wireName(), FormatId.ION_1.wireName(), FormatId.JDK_ZLIB.wireName()};
    private String zkDigestAuth;
    private Properties zkClientProperties = new Properties();
    private String zkReadAccess;

    public String getZkConnectionString() {
        return zkConnectionString;
    }

    /** ZooKeeper servers, {@code host:port[,host:port...]}. Required. */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = false)
    public ZkIonDiscoverySpi setZkConnectionString(String zkConnectionString) {
        this.zkConnectionString = zkConnectionString;
        return self();
    }

    public String getZkRootPath() {
        return zkRootPath;
    }

    /** The znode under which the cluster keeps its state; default {@value #DFLT_ROOT_PATH}. */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setZkRootPath(String zkRootPath) {
        this.zkRootPath = zkRootPath;
        return self();
    }

    public long getSessionTimeout() {
        return sessionTimeout;
    }

    /** ZooKeeper session timeout in ms: how long a silent node counts as alive. 0: the failure detection timeout. */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setSessionTimeout(long sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
        return self();
    }

    public long getJoinTimeout() {
        return joinTimeout;
    }

    /** How long a node waits to be joined, in ms; 0 waits forever. */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setJoinTimeout(long joinTimeout) {
        this.joinTimeout = joinTimeout;
        return self();
    }

    public boolean isClientReconnectDisabled() {
        return clientReconnectDisabled;
    }

    /** If true, a client that lost its session stops instead of rejoining. */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setClientReconnectDisabled(boolean clientReconnectDisabled) {
        this.clientReconnectDisabled = clientReconnectDisabled;
        return self();
    }

    public int getZkRequestSizeLimit() {
        return zkRequestSizeLimit;
    }

    /**
     * Largest ZooKeeper request this SPI sends, in bytes; larger payloads are split into parts. 0: the
     * {@code jute.maxbuffer} system property, else ZooKeeper's default of 1 MB. Keep it at most the servers' value.
     */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setZkRequestSizeLimit(int zkRequestSizeLimit) {
        this.zkRequestSizeLimit = zkRequestSizeLimit;
        return self();
    }

    public long getMaxInflatedBytes() {
        return maxInflatedBytes;
    }

    /** Refuse payloads that inflate past this many bytes (a zip bomb, or corrupt data). */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setMaxInflatedBytes(long maxInflatedBytes) {
        this.maxInflatedBytes = maxInflatedBytes;
        return self();
    }

    public String[] getEventFormats() {
        return eventFormats.clone();
    }

    /**
     * Event data formats this node reads ({@code ion-2}, {@code ion-1}, {@code jdk-zlib}). The cluster writes the
     * best format every node reads, so a cluster can move between formats one node at a time. In {@code ion-2} a
     * joining node's data is written once, to its own znode, instead of into the log and every later snapshot.
     */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setEventFormats(String... eventFormats) {
        this.eventFormats = eventFormats.clone();
        return self();
    }

    /**
     * ZooKeeper digest credentials: {@code user:password}, {@code env:NAME} (an environment variable holds them) or
     * {@code file:PATH} (the first line of a file). When set, the SPI authenticates with them and creates every znode
     * readable and writable by that identity only, instead of open to everyone.
     */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setZkDigestAuth(String zkDigestAuth) {
        this.zkDigestAuth = zkDigestAuth;
        return self();
    }

    /** Whether digest credentials are configured. The credentials themselves are never exposed or logged. */
    public boolean isZkDigestAuthSet() {
        return zkDigestAuth != null;
    }

    public Properties getZkClientProperties() {
        return copy(zkClientProperties);
    }

    /**
     * ZooKeeper client properties for this node's client only, such as {@code zookeeper.client.secure},
     * {@code zookeeper.clientCnxnSocket} and the {@code zookeeper.ssl.*} key and trust stores for TLS, or
     * {@code zookeeper.sasl.clientconfig} for SASL: set here, they need no JVM-wide system properties, and the nodes
     * of one JVM may differ. They take precedence over the system properties. Values of keys naming a password are
     * never logged or shown.
     */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setZkClientProperties(Properties zkClientProperties) {
        this.zkClientProperties = copy(zkClientProperties);
        return self();
    }

    public String getZkReadAccess() {
        return zkReadAccess;
    }

    /**
     * One more ZooKeeper identity, given read access to the znodes this node creates, for monitoring (zkion-cli):
     * {@code digest:user:<base64 SHA-1 of user:password>} ({@code zkion-cli digest} prints it; the password itself
     * is never set here) or {@code sasl:name}. Only with {@code zkDigestAuth} or a SASL login, whose znodes are
     * creator-only; join requests and payload parts stay creator-only. Znodes created before it was set keep their ACL
     * until the cluster restarts whole.
     */
    @org.apache.ignite.spi.IgniteSpiConfiguration(optional = true)
    public ZkIonDiscoverySpi setZkReadAccess(String zkReadAccess) {
        this.zkReadAccess = zkReadAccess;
        return self();
    }

    private static Properties copy(Properties p) {
        Properties out = new Properties();

        if (p != null)
            p.stringPropertyNames().forEach(k -> out.setProperty(k, p.getProperty(k)));

        return out;
    }

    /** @return The digest credentials as set (a secret or a reference to one): for the connector only. */
    String digestAuth() {
        return zkDigestAuth;
    }

    ZkIonDiscoverySpi self() {
        return (ZkIonDiscoverySpi)this;
    }

    /** Copies the configuration (not the state) into {@code to}: used by Ignite's tests for child JVMs. */
    protected ZkIonDiscoverySpi copyConfigurationTo(ZkIonDiscoverySpi to) {
        to.setZkConnectionString(zkConnectionString);
        to.setZkRootPath(zkRootPath);
        to.setSessionTimeout(sessionTimeout);
        to.setJoinTimeout(joinTimeout);
        to.setClientReconnectDisabled(clientReconnectDisabled);
        to.setZkRequestSizeLimit(zkRequestSizeLimit);
        to.setMaxInflatedBytes(maxInflatedBytes);
        to.setEventFormats(eventFormats);
        to.setZkDigestAuth(zkDigestAuth);
        to.setZkClientProperties(zkClientProperties);
        to.setZkReadAccess(zkReadAccess);

        return to;
    }

    @Override public String toString() {
        return "ZkIonDiscoverySpi [zkConnectionString=" + zkConnectionString + ", zkRootPath=" + zkRootPath
            + ", sessionTimeout=" + sessionTimeout + ", joinTimeout=" + joinTimeout + ", clientReconnectDisabled="
            + clientReconnectDisabled + ", zkDigestAuth=" + (zkDigestAuth == null ? "none" : "****")
            + (zkClientProperties == null || zkClientProperties.isEmpty() ? ""
                : ", zkClientProperties=" + ZooKeeperConnector.shown(zkClientProperties))
            + (zkReadAccess == null ? "" : ", zkReadAccess=" + zkReadAccess)
            + ']';
    }
}
