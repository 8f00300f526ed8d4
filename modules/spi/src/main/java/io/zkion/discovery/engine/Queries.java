package io.zkion.discovery.engine;

import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;

/** Ignite's questions about the cluster, answered from this node's topology and, where it must, ZooKeeper. */
final class Queries {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final Membership membership;
    private final OutageGuard outage;

    Queries(EngineContext ctx, Membership membership, OutageGuard outage) {
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.local = ctx.local();
        this.log = ctx.log();
        this.membership = membership;
        this.outage = outage;
    }

    ClusterNode coordinator() {
        Topology t = membership.topology();

        for (ClusterNode n : t.nodes()) {
            if (!n.isClient())
                return n;
        }

        return null;
    }

    boolean pingNode(UUID id) {
        if (local.id().equals(id))
            return true;

        if (!membership.topology().contains(id))
            return false;

        if (outage.active())
            return true; // ZooKeeper cannot tell now; the frozen topology keeps every node until it can.

        // Unanswered, a node in the topology is alive: only discovery says a node is gone. Ignite's communication takes
        // a false here for the peer's departure, and a segmented node, whose client is closed, then completed a
        // transaction without the backup it could not reach, as if that had left (the chaos run's lost put).
        try {
            return store.exists(paths.alive(id));
        }
        catch (Exception e) {
            log.warning("Failed to ping " + id + " through ZooKeeper: " + e + "; it is in this node's topology, so it"
                + " counts as alive");
            return true;
        }
    }

    boolean knownNode(UUID id) {
        try {
            return membership.topology().contains(id) || store.exists(paths.alive(id));
        }
        catch (Exception e) {
            return false;
        }
    }

    /**
     * Forces a node out, server or client, as the stock SPI does: removes its alive znode, so that the coordinator
     * reports it failed, at one topology version on every node. The node itself, once it sees that, stops as
     * segmented (a server) or rejoins (a client that may). A hung server that still holds its ZooKeeper session can so
     * be removed; ZkIon never calls this for a server on its own.
     */
    void failNode(UUID id, String warning) {
        ZkIonClusterNode n = membership.topology().node(id);

        if (n == null) {
            log.warning("Asked to fail node " + id + ", which is not in the topology; ignored"
                + (warning != null ? " (" + warning + ")" : ""));
            return;
        }

        log.warning("Failing " + (n.isClient() ? "client " : "server ") + id + " through discovery"
            + (warning != null ? ": " + warning : ""));
        store.deleteQuietly(paths.alive(id));
    }

    Collection<ClusterNode> remoteNodes() {
        List<ClusterNode> out = new ArrayList<>();

        for (ClusterNode n : membership.topology().nodes()) {
            if (!n.id().equals(local.id()))
                out.add(n);
        }

        return out;
    }
}
