package io.zkion.discovery.internal;

import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.ignite.cache.CacheMetrics;
import org.apache.ignite.cluster.ClusterMetrics;
import org.apache.ignite.internal.ClusterMetricsSnapshot;
import org.apache.ignite.internal.IgniteNodeAttributes;
import org.apache.ignite.internal.managers.discovery.IgniteClusterNode;
import org.apache.ignite.lang.IgniteProductVersion;
import org.apache.ignite.spi.discovery.DiscoveryMetricsProvider;

/**
 * A cluster node as this SPI knows it. Marshalled once by the node itself when it joins; the order is
 * assigned by the coordinator and travels beside the marshalled bytes, in the node's record.
 */
public final class ZkIonClusterNode implements IgniteClusterNode, Serializable, Comparable<ZkIonClusterNode> {
    private static final long serialVersionUID = 1L;

    private static final ClusterMetrics EMPTY_METRICS = new ClusterMetricsSnapshot();

    /** Changes only when a client rejoins under a new id: Ignite keeps this very object as its local node. */
    private volatile UUID id;
    private volatile Serializable consistentId;
    private volatile long order;
    private final IgniteProductVersion ver;
    private volatile Map<String, Object> attrs;
    private final Collection<String> addrs;
    private final Collection<String> hostNames;
    private final boolean client;

    /** Security credentials, kept on the local node only: they go to the coordinator in the join request. */
    private transient Object credentials;

    private transient boolean loc;
    private transient DiscoveryMetricsProvider metricsProvider;
    private transient volatile ClusterMetrics metrics;
    private transient volatile Map<Integer, CacheMetrics> cacheMetrics = Collections.emptyMap();

    public ZkIonClusterNode(UUID id, Serializable consistentId, IgniteProductVersion ver, Map<String, Object> attrs,
        Collection<String> addrs, Collection<String> hostNames, boolean client) {
        this.id = id;
        this.consistentId = consistentId;
        this.ver = ver;
        this.credentials = attrs.get(IgniteNodeAttributes.ATTR_SECURITY_CREDENTIALS);
        this.attrs = withoutCredentials(attrs);
        this.addrs = addrs;
        this.hostNames = hostNames;
        this.client = client;
    }

    /** @return The local node, whose metrics come from {@code provider}. */
    public static ZkIonClusterNode local(UUID id, Serializable consistentId, IgniteProductVersion ver,
        Map<String, Object> attrs, Collection<String> addrs, Collection<String> hostNames, boolean client,
        DiscoveryMetricsProvider provider) {
        ZkIonClusterNode n = new ZkIonClusterNode(id, consistentId, ver, attrs, addrs, hostNames, client);

        n.loc = true;
        n.metricsProvider = provider;

        if (provider != null) {
            n.metrics = provider.metrics();
            n.cacheMetrics = provider.cacheMetrics();
        }

        return n;
    }

    public void order(long order) {
        assert order > 0 : order;

        this.order = order;
    }

    /** Forgets an order this node assumed while it tried to found the cluster and lost the race. */
    public void clearOrder() {
        this.order = 0;
    }

    /** A client rejoining gets a new id on the same object. */
    public void newId(UUID id) {
        this.id = id;
        this.order = 0;
    }

    public void attributes(Map<String, Object> attrs) {
        this.credentials = attrs.get(IgniteNodeAttributes.ATTR_SECURITY_CREDENTIALS);
        this.attrs = withoutCredentials(attrs);
    }

    /** Attributes as the coordinator completes them (the security subject), credentials never among them. */
    public void replaceAttributes(Map<String, Object> attrs) {
        this.attrs = withoutCredentials(attrs);
    }

    public Object credentials() {
        return credentials;
    }

    /** Credentials never travel: the node is marshalled into ZooKeeper, where every member reads it. */
    private static Map<String, Object> withoutCredentials(Map<String, Object> attrs) {
        Map<String, Object> m = new HashMap<>(attrs);

        m.remove(IgniteNodeAttributes.ATTR_SECURITY_CREDENTIALS);

        return Collections.unmodifiableMap(m);
    }

    @Override public UUID id() {
        return id;
    }

    @Override public Object consistentId() {
        return consistentId;
    }

    @Override public void setConsistentId(Serializable consistentId) {
        this.consistentId = consistentId;

        Map<String, Object> m = new HashMap<>(attrs);

        m.put(IgniteNodeAttributes.ATTR_NODE_CONSISTENT_ID, consistentId);

        attrs = Collections.unmodifiableMap(m);
    }

    @SuppressWarnings("unchecked")
    @Override public <T> T attribute(String name) {
        return (T)attrs.get(name);
    }

    @Override public Map<String, Object> attributes() {
        return attrs;
    }

    @Override public ClusterMetrics metrics() {
        DiscoveryMetricsProvider p = metricsProvider;

        if (p != null)
            metrics = p.metrics();

        ClusterMetrics m = metrics;

        // A remote node's metrics arrive over communication later; until then, zeros rather than null.
        return m != null ? m : EMPTY_METRICS;
    }

    @Override public void setMetrics(ClusterMetrics metrics) {
        this.metrics = metrics;
    }

    @Override public Map<Integer, CacheMetrics> cacheMetrics() {
        DiscoveryMetricsProvider p = metricsProvider;

        if (p != null)
            cacheMetrics = p.cacheMetrics();

        return cacheMetrics;
    }

    @Override public void setCacheMetrics(Map<Integer, CacheMetrics> cacheMetrics) {
        this.cacheMetrics = cacheMetrics == null ? Collections.emptyMap() : cacheMetrics;
    }

    @Override public Collection<String> addresses() {
        return addrs;
    }

    @Override public Collection<String> hostNames() {
        return hostNames;
    }

    @Override public long order() {
        return order;
    }

    @Override public IgniteProductVersion version() {
        return ver;
    }

    @Override public boolean isLocal() {
        return loc;
    }

    @Override public boolean isClient() {
        return client;
    }

    @Override public int compareTo(ZkIonClusterNode o) {
        int c = Long.compare(order, o.order);

        return c != 0 ? c : id.compareTo(o.id);
    }

    @Override public boolean equals(Object o) {
        return o instanceof ZkIonClusterNode && ((ZkIonClusterNode)o).id.equals(id);
    }

    @Override public int hashCode() {
        return id.hashCode();
    }

    @Override public String toString() {
        return "ZkIonClusterNode[id=" + id + ", order=" + order + ", client=" + client + ", addrs=" + addrs
            + (loc ? ", local" : "") + "]";
    }
}
