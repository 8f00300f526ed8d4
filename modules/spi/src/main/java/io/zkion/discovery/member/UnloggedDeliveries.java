package io.zkion.discovery.member;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ignite.lang.IgniteUuid;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * Mutable messages this node, as coordinator, handed to Ignite before the commit that logs them, kept as Ignite's
 * listener left them until that commit lands. When a commit fails for real, the request is processed again: it must
 * then be logged as first delivered here (mutated, or stopped), not delivered here a second time.
 */
final class UnloggedDeliveries {
    /** Commits fail rarely and are retried at once; a few are plenty, the bound only keeps a stuck one from growing. */
    private static final int MAX = 1_024;

    private final Map<IgniteUuid, DiscoverySpiCustomMessage> msgs =
        new LinkedHashMap<IgniteUuid, DiscoverySpiCustomMessage>() {
            @Override protected boolean removeEldestEntry(Map.Entry<IgniteUuid, DiscoverySpiCustomMessage> eldest) {
                return size() > MAX;
            }
        };

    void put(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = DeliveredIds.id(msg);

        if (id != null)
            msgs.put(id, msg);
    }

    /** @return The message as delivered here, for a message with the id of {@code msg}; null if there is none. */
    DiscoverySpiCustomMessage get(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = DeliveredIds.id(msg);

        return id == null ? null : msgs.get(id);
    }

    boolean any() {
        return !msgs.isEmpty();
    }

    void remove(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = DeliveredIds.id(msg);

        if (id != null)
            msgs.remove(id);
    }
}
