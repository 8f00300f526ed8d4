package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;

/** Reads a node's data znode, which ion-2 join events and snapshot records refer to instead of copying it. */
public final class NodeDataReader {
    /** Data znodes read together by {@link #readNodes}: a few windows of requests in flight. */
    private static final int CHUNK = 128;

    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;

    public NodeDataReader(ZkStore store, ControlCodec codec) {
        this.store = store;
        this.paths = store.paths();
        this.codec = codec;
    }

    /**
     * @param what What refers to it, for the error.
     * @throws CorruptPayloadException If it is gone: the coordinator removes it only once every member is past
     *      the node's exit, so a reader that still needs it found a cluster in a state it cannot follow.
     */
    public NodeData read(UUID id, String what) throws Exception {
        return decode(id, payload(id, what));
    }

    /** @return The data znode as stored (a manifest too: deleting it takes its parts), not decoded yet. */
    public ZkStore.Payload payload(UUID id, String what) throws Exception {
        return present(store.readPayload(paths.node(id)), id, what);
    }

    public NodeData decode(UUID id, ZkStore.Payload p) {
        return codec.decodeNodeData(p.data, paths.node(id));
    }

    /**
     * Reads the data znodes of {@code ids} a chunk at a time, their requests in flight together, and hands the node of
     * each to {@code sink}, keeping none: a joiner of a thousand members holds one chunk of them, not a thousand (the
     * first 1,000-member run's join storm ran its JVMs out of heap so). The joining data after each node is not
     * inflated: a joiner has no use for it, and with many caches it is most of the znode.
     */
    public void readNodes(List<UUID> ids, String what, BiConsumer<UUID, byte[]> sink) throws Exception {
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<UUID> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            Map<String, ZkStore.Payload> read = readTogether(chunk);

            for (UUID id : chunk) {
                ZkStore.Payload p = present(read.get(paths.node(id)), id, what);

                sink.accept(id, codec.decodeNodeOnly(p.data, paths.node(id)));
            }
        }
    }

    /**
     * @return The data znodes of {@code ids} that could be read, their requests in flight together; those missing or
     *      unreadable are left out, for {@link #read} to name when they are needed.
     */
    public Map<UUID, ZkStore.Payload> readAhead(List<UUID> ids) {
        Map<UUID, ZkStore.Payload> out = new HashMap<>();

        try {
            Map<String, ZkStore.Payload> read = readTogether(ids);

            for (UUID id : ids) {
                ZkStore.Payload p = read.get(paths.node(id));

                if (p != null)
                    out.put(id, p);
            }
        }
        catch (Exception e) {
            // Each is read alone when needed, and fails there with its name.
        }

        return out;
    }

    /** @return The data znodes of {@code ids} by path, their requests in flight together. */
    private Map<String, ZkStore.Payload> readTogether(List<UUID> ids) throws Exception {
        List<String> znodes = new ArrayList<>(ids.size());

        for (UUID id : ids)
            znodes.add(paths.node(id));

        return store.readPayloads(znodes);
    }

    private ZkStore.Payload present(ZkStore.Payload p, UUID id, String what) {
        if (p == null)
            throw new CorruptPayloadException(what + " refers to the data znode " + paths.node(id) + ", which is gone");

        return p;
    }
}
