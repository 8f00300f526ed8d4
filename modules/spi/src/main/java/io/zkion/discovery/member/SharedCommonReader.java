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
 * ({@code io.zkion.discovery.coordinator.SharedCommon}). That znode stays until the batch's entry is trimmed, which
 * waits for this joiner's ack of its join while its session lives: one that is gone with the session alive, or not
 * such a znode at all, is a cluster this joiner cannot follow, and an error names it.
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
     * @param path The shared znode an answer names.
     * @param what The answer, for errors.
     * @return What it holds, as stored.
     * @throws Gone If it is gone: the caller tells whether its session ended meanwhile.
     */
    public ZkStore.Payload read(String path, String what) throws Exception {
        if (!paths.isJoinedShared(path))
            throw new CorruptPayloadException(named(what, path) + ", which is not a znode of shared common data");

        ZkStore.Payload p = store.readPayload(path);

        if (p == null)
            throw new Gone(named(what, path) + ", which is gone");

        return p;
    }

    /**
     * @param own The components the answer carried.
     * @param shared What {@link #read} returned for {@code path}.
     * @return Every component: the shared ones, with {@code own} over them.
     */
    public Map<Integer, Serializable> withShared(Map<Integer, Serializable> own, ZkStore.Payload shared, String path) {
        Map<Integer, Serializable> all = objects.unmarshal(codec.decodeSharedCommon(shared.data, path).common, path);

        all.putAll(own);

        return all;
    }

    private static String named(String what, String path) {
        return what + " names shared common data " + path;
    }

    /** The shared znode is gone. */
    public static final class Gone extends CorruptPayloadException {
        private static final long serialVersionUID = 1L;

        Gone(String msg) {
            super(msg);
        }
    }
}
