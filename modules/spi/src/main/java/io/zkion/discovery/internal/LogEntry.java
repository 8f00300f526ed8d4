package io.zkion.discovery.internal;

import java.util.List;
import java.util.UUID;

/**
 * What a node remembers of one untrimmed log entry: enough to trim it, to ack its custom events and to remove
 * the data znodes of the nodes it takes out of the cluster once it is trimmed.
 */
final class LogEntry {
    final long seq;
    final String path;
    final long lastEventId;
    final List<Long> customEventIds;

    /** Nodes this entry removes from the topology (left or failed). */
    final List<UUID> departed;

    /** The znode's raw data when it is a parts manifest (its parts are deleted with it), else null. */
    final byte[] manifest;

    LogEntry(long seq, String path, long lastEventId, List<Long> customEventIds, List<UUID> departed, byte[] manifest) {
        this.seq = seq;
        this.path = path;
        this.lastEventId = lastEventId;
        this.customEventIds = customEventIds;
        this.departed = departed;
        this.manifest = manifest;
    }
}
