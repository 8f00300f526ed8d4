package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.apache.ignite.cluster.ClusterNode;

/** A round the log has opened and not yet closed: its id and the nodes of the topology where it opened. */
final class OpenRound {
    final UUID id;
    final long topVer;
    final List<ClusterNode> nodes;

    OpenRound(UUID id, long topVer, Collection<ClusterNode> nodes) {
        this.id = id;
        this.topVer = topVer;
        this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
    }

    boolean has(UUID node) {
        for (ClusterNode n : nodes) {
            if (n.id().equals(node))
                return true;
        }

        return false;
    }
}
