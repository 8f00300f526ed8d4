package io.zkion.discovery.member;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.lang.IgniteUuid;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * The ids of the last custom messages a node delivered, in log order. When the connection drops after ZooKeeper
 * applied an append but before its answer arrived, Curator sends the append again, and the log holds the message
 * twice; every node that delivered the first copy knows its id and skips the second. (TcpDiscoverySpi also drops a
 * message it has processed, by the id of its own envelope.) A node that joined between the copies never saw the
 * first, and delivers the second.
 */
public final class DeliveredIds {
    /** A replay comes within the session timeout; at thousands of messages a second this still spans seconds. */
    static final int WINDOW = 16_384;

    private final Map<IgniteUuid, Boolean> ids = new LinkedHashMap<IgniteUuid, Boolean>() {
        @Override protected boolean removeEldestEntry(Map.Entry<IgniteUuid, Boolean> eldest) {
            return size() > WINDOW;
        }
    };

    /** @return False if a message with the same id was added lately; messages without an id always count as new. */
    public boolean add(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = id(msg);

        return id == null || ids.put(id, Boolean.TRUE) == null;
    }

    public boolean contains(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = id(msg);

        return id != null && ids.containsKey(id);
    }

    /** @return Ignite's id of the message, or null for a message that is not Ignite's wrapper. */
    static IgniteUuid id(DiscoverySpiCustomMessage msg) {
        return msg instanceof CustomMessageWrapper ? ((CustomMessageWrapper)msg).delegate().id() : null;
    }
}
