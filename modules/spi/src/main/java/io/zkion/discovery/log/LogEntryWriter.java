package io.zkion.discovery.log;

import java.util.List;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.zookeeper.CreateMode;

/**
 * The one place where events become a sequential znode's create: the coordinator's entries, the founder's first
 * entry, a member's one-hop message and a message queued for the coordinator all go through here, so they share
 * one encoding, one header (cluster id, topology version, event id counter) and one way of splitting into parts.
 * What happens after the multi that carries the op is {@link ZkStore#commit}'s policy.
 */
public final class LogEntryWriter {
    private final ZkStore store;
    private final ZkPaths paths;
    private final EventFormats formats;

    public LogEntryWriter(ZkStore store, EventFormats formats) {
        this.store = store;
        this.paths = store.paths();
        this.formats = formats;
    }

    /** Events encoded and prepared for a multi: parts, if any, are written already. */
    public static final class Draft {
        public final EventBatch batch;
        public final ZkStore.Prepared prepared;

        /** The encoded size, for the metrics. */
        public final int size;

        /** What the znode holds once created: the encoded events, or the manifest of their parts. */
        public final byte[] stored;

        Draft(EventBatch batch, ZkStore.Prepared prepared, byte[] encoded) {
            this.batch = batch;
            this.prepared = prepared;
            this.size = encoded.length;
            this.stored = prepared.manifest != null ? prepared.manifest : encoded;
        }
    }

    /**
     * @return An entry of {@code log/} in log epoch {@code epoch}: ZooKeeper's sequence gives it its place in the
     *      cluster's order.
     */
    public Draft logEntry(UUID clusterId, long topVer, List<DiscoveryEvent> events, FormatId format, long epoch)
        throws Exception {
        return draft(paths.logPrefix(epoch), clusterId, topVer, events, format);
    }

    /** @return A request under {@code custom/}, for the coordinator to log. */
    public Draft queued(UUID clusterId, List<DiscoveryEvent> events, FormatId format) throws Exception {
        return draft(paths.customPrefix(), clusterId, 0, events, format);
    }

    private Draft draft(String prefix, UUID clusterId, long topVer, List<DiscoveryEvent> events, FormatId format)
        throws Exception {
        // Ids in an entry run from 0; its place in the log makes them absolute (see EventIds).
        EventBatch batch = new EventBatch(clusterId, topVer, events.size() - 1, events);
        byte[] bytes = formats.get(format).encode(batch);

        return new Draft(batch, store.create(prefix, bytes, CreateMode.PERSISTENT_SEQUENTIAL), bytes);
    }
}
