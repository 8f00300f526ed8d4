package io.zkion.discovery.resolve;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.msg.ConnectivityReport;
import org.apache.ignite.cluster.ClusterNode;

/** Who reaches whom in a round, from the reports: a node that did not report reaches nobody. */
final class Connectivity {
    private final Set<UUID> inRound = new HashSet<>();
    private final Map<UUID, ConnectivityReport> reports;

    Connectivity(List<ClusterNode> roundNodes, Map<UUID, ConnectivityReport> reports) {
        for (ClusterNode n : roundNodes)
            inRound.add(n.id());

        this.reports = reports;
    }

    /** @throws IllegalArgumentException If either node was not in the round, as Ignite's context does. */
    boolean available(ClusterNode from, ClusterNode to) {
        if (!inRound.contains(from.id()) || !inRound.contains(to.id()))
            throw new IllegalArgumentException("Node " + (inRound.contains(from.id()) ? to.id() : from.id())
                + " was not in the topology of the communication failure round");

        ConnectivityReport r = reports.get(from.id());

        return r != null && r.reached.contains(to.id());
    }

    /** @return Whether each of {@code nodes} reaches each other both ways. */
    boolean full(Collection<ClusterNode> nodes) {
        for (ClusterNode a : nodes) {
            for (ClusterNode b : nodes) {
                if (a != b && !available(a, b))
                    return false;
            }
        }

        return true;
    }

    /** @return The first error a node reported; null if none did. */
    String error() {
        for (ConnectivityReport r : reports.values()) {
            if (r.error != null)
                return r.node + ": " + r.error;
        }

        return null;
    }

    /** @return The matrix, for the verdict's log line: each node by order, and the orders it reached. */
    String describe(List<ClusterNode> nodes) {
        StringBuilder sb = new StringBuilder();

        for (ClusterNode a : nodes) {
            if (sb.length() > 0)
                sb.append("; ");

            sb.append(a.order()).append(a.isClient() ? "c" : "").append(" -> ");

            ConnectivityReport r = reports.get(a.id());

            if (r == null) {
                sb.append("no report");
                continue;
            }

            StringBuilder to = new StringBuilder();

            for (ClusterNode b : nodes) {
                if (b != a && r.reached.contains(b.id()))
                    to.append(to.length() > 0 ? "," : "").append(b.order());
            }

            sb.append(to.length() == 0 ? "none" : to.toString());
        }

        return sb.toString();
    }
}
