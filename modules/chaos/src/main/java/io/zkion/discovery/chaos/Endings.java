package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How each node id's life in the cluster ended, as the events say, and whether a fault was aimed at the node while it
 * had that id. A failed node is no survivor, even while its process still runs (a server segmented and stopping); a
 * client failed under an id no fault was aimed at is a violation, since it rejoins and no exit shows it.
 */
final class Endings {
    /** Node id to the topology version of its NODE_LEFT or NODE_FAILED, the first if several. */
    final Map<String, Long> endOf = new HashMap<>();
    /** Node ids the cluster failed. */
    private final Set<String> failed = new HashSet<>();
    /** Incarnation to the times faults aimed at it were injected, or null when the caller did not say. */
    private final Map<String, List<Long>> aimedAt;

    /** @param eventOf topVer to "TYPE nodeId", as the checker agreed them. */
    Endings(Map<Long, String> eventOf, Map<String, List<Long>> aimedAt) {
        this.aimedAt = aimedAt;

        for (Map.Entry<Long, String> e : eventOf.entrySet()) {
            String[] p = e.getValue().split(" ");

            if (!p[0].equals("NODE_JOINED"))
                endOf.merge(p[1], e.getKey(), Math::min);

            if (p[0].equals("NODE_FAILED"))
                failed.add(p[1]);
        }
    }

    /** @return Whether the cluster failed node {@code id}. */
    boolean failed(String id) {
        return failed.contains(id);
    }

    /** @return Whether a fault was aimed at {@code h} while it had {@code v}'s id (from its start to the next id's). */
    boolean aimed(NodeHistory h, NodeHistory.View v) {
        if (aimedAt == null)
            return false;

        int i = h.views.indexOf(v);
        long from = i == 0 ? Long.MIN_VALUE : v.since;
        long to = i + 1 < h.views.size() ? h.views.get(i + 1).since : Long.MAX_VALUE;

        for (long t : aimedAt.getOrDefault(h.key, List.of())) {
            if (t >= from && t < to)
                return true;
        }

        return false;
    }

    /**
     * @return Each client the cluster failed, before any graceful stop, under an id no fault was aimed at; none when
     *      the faults were not given.
     */
    List<String> unaimedClientFailures(Collection<NodeHistory> all) {
        List<String> out = new ArrayList<>();

        if (aimedAt == null)
            return out;

        for (NodeHistory h : all) {
            if (!h.client)
                continue;

            for (NodeHistory.View v : h.views) {
                if (failed(v.id) && v.until == Long.MAX_VALUE && !aimed(h, v))
                    out.add("the cluster failed client " + h.key + " (node " + v.id + ") with no fault aimed at it");
            }
        }

        return out;
    }
}
