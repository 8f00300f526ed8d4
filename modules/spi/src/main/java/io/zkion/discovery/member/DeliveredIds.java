package io.zkion.discovery.member;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.CorruptPayloadException;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.lang.IgniteUuid;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * The ids of the last custom messages a node delivered, in log order. When the connection drops after ZooKeeper
 * applied an append but before its answer arrived, Curator sends the append again, and the log holds the message
 * twice; every node that delivered the first copy knows its id and skips the second. (TcpDiscoverySpi also drops a
 * message it has processed, by the id of its own envelope.) A node that joined between the copies never saw the
 * first: the coordinator hands it its latest ids with the join ({@link #recent}, {@link #seed}).
 */
public final class DeliveredIds {
    /** A replay comes within the session timeout; at thousands of messages a second this still spans seconds. */
    static final int WINDOW = 16_384;

    private final Map<IgniteUuid, Boolean> ids = new LinkedHashMap<IgniteUuid, Boolean>() {
        @Override protected boolean removeEldestEntry(Map.Entry<IgniteUuid, Boolean> eldest) {
            return size() > WINDOW;
        }
    };

    /**
     * The ids the coordinator delivered before this node joined, as its join answer named them: copies of them are
     * skipped, but this node never delivered them, so it owes their acks as a coordinator would.
     */
    private final Map<IgniteUuid, Boolean> beforeJoin = new LinkedHashMap<IgniteUuid, Boolean>() {
        @Override protected boolean removeEldestEntry(Map.Entry<IgniteUuid, Boolean> eldest) {
            return size() > WINDOW;
        }
    };

    /**
     * @return False if a message with the same id was added lately, or delivered before this node joined; messages
     *      without an id always count as new.
     */
    public boolean add(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = id(msg);

        return id == null || (!beforeJoin.containsKey(id) && ids.put(id, Boolean.TRUE) == null);
    }

    /** @return Whether a copy of {@code msg} reached Ignite, here or, before this node joined, on the others. */
    public boolean contains(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = id(msg);

        return id != null && (ids.containsKey(id) || beforeJoin.containsKey(id));
    }

    /** @return Whether this node itself handed a copy of {@code msg} to Ignite. */
    public boolean deliveredHere(DiscoverySpiCustomMessage msg) {
        IgniteUuid id = id(msg);

        return id != null && ids.containsKey(id);
    }

    /** Ids a join answer carries at most: the copies a joiner may meet come within moments of its join. */
    static final int HANDED_TO_JOINER = 4_096;

    /** Bytes of one id in {@link #recent}: the global id's two longs and the local id. */
    private static final int ID_BYTES = 24;

    /** @return The latest ids, oldest first, at most {@link #HANDED_TO_JOINER}; null when there are none. */
    public byte[] recent() {
        List<IgniteUuid> all = new ArrayList<>(ids.keySet());

        if (all.isEmpty())
            return null;

        List<IgniteUuid> last = all.subList(Math.max(0, all.size() - HANDED_TO_JOINER), all.size());
        ByteBuffer buf = ByteBuffer.allocate(last.size() * ID_BYTES);

        for (IgniteUuid id : last) {
            buf.putLong(id.globalId().getMostSignificantBits());
            buf.putLong(id.globalId().getLeastSignificantBits());
            buf.putLong(id.localId());
        }

        return buf.array();
    }

    /** Takes the ids {@link #recent} gave a joiner as delivered before it joined. */
    public void seed(byte[] recent, String what) {
        if (recent == null)
            return;

        if (recent.length % ID_BYTES != 0 || recent.length / ID_BYTES > WINDOW) {
            throw new CorruptPayloadException(what + ": the recent message ids take " + recent.length
                + " bytes, not a whole number of ids of " + ID_BYTES + " bytes up to " + WINDOW);
        }

        ByteBuffer buf = ByteBuffer.wrap(recent);

        while (buf.hasRemaining())
            beforeJoin.put(new IgniteUuid(new UUID(buf.getLong(), buf.getLong()), buf.getLong()), Boolean.TRUE);
    }

    /** @return Ignite's id of the message, or null for a message that is not Ignite's wrapper. */
    static IgniteUuid id(DiscoverySpiCustomMessage msg) {
        return msg instanceof CustomMessageWrapper ? ((CustomMessageWrapper)msg).delegate().id() : null;
    }
}
