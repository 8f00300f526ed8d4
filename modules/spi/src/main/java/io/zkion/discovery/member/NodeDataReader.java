package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;

/** Reads a node's data znode, which ion-2 join events and snapshot records refer to instead of copying it. */
public final class NodeDataReader {
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

    /** Reads the data znodes of {@code ids}, their requests in flight together; as {@link #read}, for each. */
    public Map<UUID, NodeData> readAll(Collection<UUID> ids, String what) throws Exception {
        List<String> znodes = new ArrayList<>(ids.size());

        for (UUID id : ids)
            znodes.add(paths.node(id));

        Map<String, ZkStore.Payload> read = store.readPayloads(znodes);
        Map<UUID, NodeData> out = new HashMap<>();

        for (UUID id : ids)
            out.put(id, decode(id, present(read.get(paths.node(id)), id, what)));

        return out;
    }

    private ZkStore.Payload present(ZkStore.Payload p, UUID id, String what) {
        if (p == null)
            throw new CorruptPayloadException(what + " refers to the data znode " + paths.node(id) + ", which is gone");

        return p;
    }
}
