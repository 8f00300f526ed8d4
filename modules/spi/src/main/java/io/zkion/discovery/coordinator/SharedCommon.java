package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
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
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.ignite.IgniteLogger;

/**
 * Ignite's common discovery data for the joiners of one batch, written once where it is alike. Ignite collects it for
 * each joiner, and between joiners of one batch it differs in a component or two (one of them lists every node); the
 * rest is most of its bytes (some 5.7 of 8 KB compressed in a 16-server storm). That rest goes to one znode of the
 * batch, and each answer carries only its joiner's other components.
 * <p>
 * Only a joiner that advertises {@link #CAPABILITY} gets such an answer: an older one would take its part for the
 * whole. And only while every server advertises it: any server may become coordinator, and an older one's sweep removes
 * every name under joined/ that is not a node's. Components are compared as Ignite's marshaller writes each alone (the
 * way TcpDiscoverySpi sends them), from each joiner's data as marshalled when Ignite collected it: some components are
 * live, and later joiners of the batch change them.
 */
public final class SharedCommon {
    /** Says a node, as a joiner, reads an answer that leaves part of the common data to a znode of its batch. */
    private static final NodeCapability CAPABILITY = new NodeCapability("io.zkion.discovery.sharedCommonData", 1);

    /** Below this many bytes saved, a shared znode costs more (a create, a read per joiner, a sweep) than it saves. */
    static final int MIN_SAVING = 1024;

    /** What a payload in parts adds to a multi: its manifest, about (see {@code Joins#write}). */
    private static final int IN_PARTS = 256;

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
     * As {@link #plan}, but null where it fails (a component that does not unmarshal here, say): sharing only saves
     * bytes, and a failure must not stop the coordinator, nor every coordinator after it, on the same joins.
     */
    static SharedCommon planOrNone(List<Admission> batch, Collection<ZkIonClusterNode> servers, ObjectCodec objects,
        ControlCodec codec, ZkPaths paths, IgniteLogger log) {
        try {
            return plan(batch, servers, objects, codec, paths);
        }
        catch (RuntimeException e) {
            log.warning("Answering a batch of joins whole: its common data could not be shared: " + e);

            return null;
        }
    }

    /**
     * @param batch The joins of one log entry, in order.
     * @param members The cluster's members before the batch, with the joins of the pass before it.
     * @return What its capable joiners share, or null if fewer than two of them can, they have nothing alike, or a
     *      server (a member, or a joiner of the batch) is of a release that does not know it.
     */
    static SharedCommon plan(List<Admission> batch, Collection<ZkIonClusterNode> members, ObjectCodec objects,
        ControlCodec codec, ZkPaths paths) {
        for (ZkIonClusterNode n : members) {
            if (!n.isClient() && !CAPABILITY.of(n))
                return null;
        }

        List<Admission> capable = new ArrayList<>();

        for (Admission a : batch) {
            if (CAPABILITY.of(a.node))
                capable.add(a);
            else if (!a.node.isClient())
                return null;
        }

        if (capable.size() < 2)
            return null;

        List<Map<Integer, Serializable>> data = new ArrayList<>();

        for (Admission a : capable)
            data.add(objects.unmarshal(a.commonData, "the common data collected for " + a.id));

        Map<Integer, byte[]> baseBytes = marshalEach(data.get(0), data.get(0).keySet(), objects);
        Set<Integer> alike = new HashSet<>(baseBytes.keySet());

        for (Map<Integer, Serializable> d : data.subList(1, data.size())) {
            Map<Integer, byte[]> mine = marshalEach(d, alike, objects); // Only what may still be alike.

            alike.removeIf(k -> !Arrays.equals(baseBytes.get(k), mine.get(k)));

            if (alike.isEmpty())
                return null;
        }

        Map<Integer, Serializable> shared = new HashMap<>(data.get(0));

        shared.keySet().retainAll(alike);

        Map<UUID, byte[]> own = new HashMap<>();

        for (int i = 0; i < capable.size(); i++) {
            Map<Integer, Serializable> rest = new HashMap<>(data.get(i));

            rest.keySet().removeAll(alike);
            own.put(capable.get(i).id, objects.marshal(rest));
        }

        // Its own name: a joiner of this batch that asks again may come first in a later batch while this one stands.
        return new SharedCommon(paths.joinedShared(UUID.randomUUID()),
            codec.encode(new SharedCommonData(objects.marshal(shared))), own);
    }

    /** @return {@code id}'s own components, marshalled, if it shares the rest; null if its answer holds them all. */
    byte[] own(UUID id) {
        return own.get(id);
    }

    /**
     * @param whole Each join's answer whole.
     * @param sharing Each join's answer with this sharing.
     * @param inlineLimit The largest payload a multi carries inline; a larger one goes to parts.
     * @return Whether sharing saves {@link #MIN_SAVING} bytes or more, and carries no more in the batch's multi than
     *      the whole answers, which the batch was cut for: an answer whole in parts may fit inline once shared.
     */
    boolean pays(Map<UUID, byte[]> whole, Map<UUID, byte[]> sharing, int inlineLimit) {
        long saved = -payload.length;
        long multiWhole = 0;
        long multiSharing = inMulti(payload, inlineLimit);

        for (Map.Entry<UUID, byte[]> e : whole.entrySet()) {
            byte[] s = sharing.get(e.getKey());

            saved += e.getValue().length - s.length;
            multiWhole += inMulti(e.getValue(), inlineLimit);
            multiSharing += inMulti(s, inlineLimit);
        }

        return saved >= MIN_SAVING && multiSharing <= multiWhole;
    }

    private static int inMulti(byte[] payload, int inlineLimit) {
        return payload.length <= inlineLimit ? payload.length : IN_PARTS;
    }

    /** @return The components {@code keys} of {@code common} that it has, each marshalled alone. */
    private static Map<Integer, byte[]> marshalEach(Map<Integer, Serializable> common, Set<Integer> keys,
        ObjectCodec objects) {
        Map<Integer, byte[]> out = new HashMap<>();

        for (Integer k : keys) {
            if (common.containsKey(k))
                out.put(k, objects.marshal(common.get(k)));
        }

        return out;
    }
}
