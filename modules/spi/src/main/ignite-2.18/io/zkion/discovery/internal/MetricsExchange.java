package io.zkion.discovery.internal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cache.CacheMetrics;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.ClusterMetricsSnapshot;
import org.apache.ignite.internal.processors.cache.CacheMetricsSnapshot;
import org.apache.ignite.lang.IgniteBiPredicate;
import org.apache.ignite.spi.IgniteSpiContext;

/**
 * Node metrics between the nodes of an Ignite 2.18 cluster. For discovery SPIs other than TCP, Ignite's cluster
 * processor sends them over communication itself, but 2.18's handler of the oldest node's message for all nodes reads
 * the single-node field, which that message leaves null: it throws, and no node but the oldest learns anyone's
 * metrics (their {@code CPUs} show -1, and 2.18's {@code ClusterNodeMetricsUpdateTest} fails). 2.17 reads the right
 * field, so this runs on the 2.18 line only: as often as Ignite's {@code metricsUpdateFrequency} says, each node
 * sends its own metrics to the coordinator, which relays everyone's to every node ({@link MetricsRoutes}), through
 * the SPI context's messaging.
 */
public final class MetricsExchange implements AutoCloseable {
    /** The communication topic of the exchange. */
    static final String TOPIC = "io.zkion.discovery.metrics";

    private final IgniteSpiContext ctx;
    private final Supplier<ClusterNode> local;
    private final Supplier<Iterable<ClusterNode>> remotes;
    private final Function<UUID, ClusterNode> node;
    private final IgniteLogger log;
    private final ScheduledExecutorService timer;
    private final IgniteBiPredicate<UUID, Object> receiver = this::received;

    /** Each node's latest metrics, as received: what this node relays while it coordinates. */
    private final Map<UUID, Update> latest = new ConcurrentHashMap<>();

    public MetricsExchange(IgniteSpiContext ctx, Supplier<ClusterNode> local, Supplier<Iterable<ClusterNode>> remotes,
        Function<UUID, ClusterNode> node, String instanceName, IgniteLogger log) {
        this.ctx = ctx;
        this.local = local;
        this.remotes = remotes;
        this.node = node;
        this.log = log;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "zkion-metrics%" + (instanceName == null ? "" : instanceName) + '%');

            t.setDaemon(true);

            return t;
        });
    }

    /** Starts sending every {@code periodMs}, and applying what others send. */
    public void start(long periodMs) {
        ctx.addLocalMessageListener(TOPIC, receiver);
        timer.scheduleWithFixedDelay(this::send, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    private void send() {
        try {
            ZkIonClusterNode loc = (ZkIonClusterNode)local.get(); // A client that rejoined is a new node.
            Map<Integer, CacheMetricsSnapshot> caches = new HashMap<>();

            for (Map.Entry<Integer, CacheMetrics> e : loc.cacheMetrics().entrySet())
                caches.put(e.getKey(), new CacheMetricsSnapshot(e.getValue()));

            Update own = new Update(loc.id(), ClusterMetricsSnapshot.serialize(loc.metrics()), caches);
            List<ClusterNode> others = new ArrayList<>();

            remotes.get().forEach(others::add);

            List<ClusterNode> all = new ArrayList<>(others);

            all.add(loc);

            ClusterNode crd = MetricsRoutes.coordinator(all);
            Relayed relayed = null;

            if (crd != null && crd.id().equals(loc.id())) {
                latest.put(loc.id(), own);
                latest.keySet().removeIf(id -> node.apply(id) == null); // Gone from the topology.
                relayed = new Relayed(new ArrayList<>(latest.values()));
            }
            else
                latest.clear(); // Another coordinates: what was received here is relayed by it.

            for (ClusterNode n : others) {
                MetricsRoutes.Route r = MetricsRoutes.route(loc, crd, n);

                if (r == MetricsRoutes.Route.NONE)
                    continue;

                try {
                    ctx.send(n, r == MetricsRoutes.Route.OWN ? own : relayed, TOPIC);
                }
                catch (Exception e) {
                    // The node left meanwhile, or is not reachable yet: the next round reaches it.
                    if (log.isDebugEnabled())
                        log.debug("Node metrics not sent to " + n.id() + ": " + e);
                }
            }
        }
        catch (RuntimeException e) {
            log.warning("Failed to send this node's metrics: " + e, e);
        }
    }

    private boolean received(UUID from, Object msg) {
        if (msg instanceof Update) {
            Update u = (Update)msg;

            apply(u);
            latest.put(u.nodeId, u);
        }
        else if (msg instanceof Relayed) {
            for (Update u : ((Relayed)msg).updates)
                apply(u);
        }

        return true; // Keep listening.
    }

    private void apply(Update u) {
        ClusterNode n = node.apply(u.nodeId);

        if (n instanceof ZkIonClusterNode && !n.isLocal()) {
            ((ZkIonClusterNode)n).setMetrics(ClusterMetricsSnapshot.deserialize(u.metrics, 0));
            ((ZkIonClusterNode)n).setCacheMetrics(new HashMap<>(u.caches));
        }
    }

    @Override public void close() {
        timer.shutdownNow();

        try {
            ctx.removeLocalMessageListener(TOPIC, receiver);
        }
        catch (RuntimeException ignored) {
            // The context is gone with the node.
        }
    }

    /** Every node's metrics, as the coordinator last received them, as one message. */
    static final class Relayed implements Serializable {
        private static final long serialVersionUID = 1L;

        final ArrayList<Update> updates;

        Relayed(List<Update> updates) {
            this.updates = new ArrayList<>(updates);
        }
    }

    /** One node's metrics, as one message. */
    static final class Update implements Serializable {
        private static final long serialVersionUID = 1L;

        final UUID nodeId;
        final byte[] metrics;
        final HashMap<Integer, CacheMetricsSnapshot> caches;

        Update(UUID nodeId, byte[] metrics, Map<Integer, CacheMetricsSnapshot> caches) {
            this.nodeId = nodeId;
            this.metrics = metrics;
            this.caches = new HashMap<>(caches);
        }
    }
}
