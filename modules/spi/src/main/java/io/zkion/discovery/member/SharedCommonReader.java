package io.zkion.discovery.member;

import java.io.Serializable;
import java.util.Map;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;

/**
 * A joiner's read of the common data its answer left to the znode its batch shares
 * ({@code io.zkion.discovery.coordinator.SharedCommon}). That znode stays until the joiner acked its join, so one
 * that is gone, or not such a znode at all, is a cluster this joiner cannot follow: an error names it.
 */
public final class SharedCommonReader {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;
    private final ObjectCodec objects;

    public SharedCommonReader(ZkStore store, ControlCodec codec, ObjectCodec objects) {
        this.store = store;
        this.paths = store.paths();
        this.codec = codec;
        this.objects = objects;
    }

    /**
     * @param own The components the answer carried.
     * @param path The shared znode the answer names.
     * @param what The answer, for errors.
     * @return Every component: the shared ones, with {@code own} over them.
     */
    public Map<Integer, Serializable> withShared(Map<Integer, Serializable> own, String path, String what)
        throws Exception {
        String named = what + " names shared common data " + path;

        if (!path.startsWith(paths.joined + '/' + ZkPaths.SHARED_PREFIX))
            throw new CorruptPayloadException(named + ", which is not a znode of shared common data");

        ZkStore.Payload p = store.readPayload(path);

        if (p == null)
            throw new CorruptPayloadException(named + ", which is gone");

        Map<Integer, Serializable> all = objects.unmarshal(codec.decodeSharedCommon(p.data, path).common, path);

        all.putAll(own);

        return all;
    }
}
