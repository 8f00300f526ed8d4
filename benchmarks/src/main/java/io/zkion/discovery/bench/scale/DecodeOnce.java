package io.zkion.discovery.bench.scale;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.ignite.IgniteCheckedException;

/**
 * With {@code -Dzkion.scale.decodeOnce=true}, a member JVM decodes each node and each joining data once, whichever of
 * its members reads them first; the others get a copy of the node (their own object: the SPI sets its order) and the
 * same joining or common data map. Sharing the maps is safe here only: the captured data is component bytes, and the
 * simulation's host hands it to no component ({@code SimHost}'s {@code onExchange} does nothing).
 * <p>
 * Why: every member decodes every other member's node, N² decodes in all, where one real node on its own machine does
 * N. On 2 cores, at 1,000 members, those decodes alone come to some 600 CPU-seconds, and the storm starves members of
 * their sessions (docs/benchmarks.md, "Scale"). Run this way, the figures measure ZkIon's protocol and ZooKeeper; each
 * member's Ignite decoding is then left out of the figures, and the report says so. Custom messages are decoded by
 * each member as always.
 */
final class DecodeOnce {
    static final String PROPERTY = "zkion.scale.decodeOnce";
    static final boolean ON = Boolean.getBoolean(PROPERTY);

    /** Enough for every node and joining data of 1,000 members several times over; past it, nothing more is kept. */
    private static final int MAX_ENTRIES = 20_000;
    private static final Map<ByteKey, Object> DECODED = new ConcurrentHashMap<>();
    private static final List<Field> NODE_FIELDS = serialFields();

    private DecodeOnce() {
    }

    /** Ignite's decoding of the bytes at hand. */
    interface Decoder {
        Object decode() throws IgniteCheckedException;
    }

    /**
     * @return What {@code bytes} decode to, as the caller's own object (a node is copied): decoded by {@code decoder}
     *      the first time this JVM meets them, kept if it is a node or a map, and taken from there after.
     */
    static Object decoded(byte[] bytes, Decoder decoder) throws IgniteCheckedException {
        ByteKey key = new ByteKey(bytes);
        Object o = DECODED.get(key);

        if (o == null) {
            o = decoder.decode();

            if (!(o instanceof ZkIonClusterNode || o instanceof Map) || DECODED.size() >= MAX_ENTRIES)
                return o;

            // The first reader's node stays the pattern; it gets a copy like every other member.
            DECODED.putIfAbsent(key, o);
        }

        return o instanceof ZkIonClusterNode ? copy((ZkIonClusterNode)o) : o;
    }

    /** A node with every serialized field of {@code n}; its transient ones as the constructor leaves them. */
    private static ZkIonClusterNode copy(ZkIonClusterNode n) {
        ZkIonClusterNode c = new ZkIonClusterNode(n.id(), null, null, Collections.emptyMap(), null, null, false);

        try {
            for (Field f : NODE_FIELDS)
                f.set(c, f.get(n));
        }
        catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot copy a decoded node", e);
        }

        return c;
    }

    private static List<Field> serialFields() {
        List<Field> fields = new ArrayList<>();

        for (Field f : ZkIonClusterNode.class.getDeclaredFields()) {
            if ((f.getModifiers() & (Modifier.STATIC | Modifier.TRANSIENT)) == 0) {
                f.setAccessible(true);
                fields.add(f);
            }
        }

        return fields;
    }
}
