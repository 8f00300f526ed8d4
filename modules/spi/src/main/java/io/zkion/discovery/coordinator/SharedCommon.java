package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.SharedCommonData;
import io.zkion.discovery.internal.NodeCapability;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.zk.ZkPaths;

/**
 * Ignite's common discovery data for the joiners of one batch, written once where it is alike. Ignite collects it for
 * each joiner, and between joiners of one batch it differs in a component or two (one of them lists every node); the
 * rest is most of its bytes (some 5.7 of 8 KB compressed in a 16-server storm). That rest goes to one znode of the
 * batch, and each answer carries only its joiner's other components.
 * <p>
 * Only a joiner that advertises {@link #CAPABILITY} gets such an answer: an older one would take its part for the whole.
 * Components are compared as Ignite's marshaller writes each alone, the way TcpDiscoverySpi sends them.
 */
public final class SharedCommon {
    /** Says a joiner reads an answer that leaves part of the common data to a znode of its batch. */
    private static final NodeCapability CAPABILITY = new NodeCapability("io.zkion.discovery.sharedCommonData", 1);

    /** The znode written once for the batch, and what it holds (encoded). */
    final String path;
    final byte[] payload;

    /** Each sharing joiner's own components, marshalled as a map. */
    private final Map<UUID, byte[]> own;

    private SharedCommon(String path, byte[] payload, Map<UUID, byte[]> own) {
        this.path = path;
        this.payload = payload;
        this.own = own;
    }

    /** @return {@code attrs} with the attribute that says this node, as a joiner, reads shared common data. */
    public static Map<String, Object> withCapability(Map<String, Object> attrs) {
        return CAPABILITY.advertise(attrs);
    }

    /**
     * @param batch The joins of one log entry, in order.
     * @return What its capable joiners share, or null if fewer than two of them can, or they have nothing alike.
     */
    static SharedCommon plan(List<Admission> batch, ObjectCodec objects, ControlCodec codec, ZkPaths paths) {
        List<Admission> capable = new ArrayList<>();

        for (Admission a : batch) {
            if (a.common != null && CAPABILITY.of(a.node))
                capable.add(a);
        }

        if (capable.size() < 2)
            return null;

        Admission base = capable.get(0);
        Map<Integer, byte[]> baseBytes = marshalEach(base.common, objects);
        Set<Integer> alike = new HashSet<>(baseBytes.keySet());

        for (Admission a : capable.subList(1, capable.size())) {
            Map<Integer, byte[]> mine = marshalEach(a.common, objects);

            alike.removeIf(k -> !Arrays.equals(baseBytes.get(k), mine.get(k)));
        }

        if (alike.isEmpty())
            return null;

        Map<Integer, Serializable> shared = new HashMap<>();

        for (Integer k : alike)
            shared.put(k, base.common.get(k));

        Map<UUID, byte[]> own = new HashMap<>();

        for (Admission a : capable) {
            Map<Integer, Serializable> rest = new HashMap<>(a.common);

            rest.keySet().removeAll(alike);
            own.put(a.id, objects.marshal(rest));
        }

        return new SharedCommon(paths.joinedShared(batch.get(0).id),
            codec.encode(new SharedCommonData(objects.marshal(shared))), own);
    }

    /** @return {@code id}'s own components, marshalled, if it shares the rest; null if its answer holds them all. */
    byte[] own(UUID id) {
        return own.get(id);
    }

    private static Map<Integer, byte[]> marshalEach(Map<Integer, Serializable> common, ObjectCodec objects) {
        Map<Integer, byte[]> out = new HashMap<>();

        for (Map.Entry<Integer, Serializable> e : common.entrySet())
            out.put(e.getKey(), objects.marshal(e.getValue()));

        return out;
    }
}
