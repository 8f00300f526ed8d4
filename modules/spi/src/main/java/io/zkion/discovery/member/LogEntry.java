package io.zkion.discovery.member;

import java.util.List;
import java.util.UUID;

/**
 * What a node remembers of one untrimmed log entry: enough to trim it, to ack its custom events, to know which
 * joiners need it, and to remove the data znodes of the nodes it takes out of the cluster once it is trimmed.
 */
public final class LogEntry {
    public final long seq;
    public final String path;
    public final long lastEventId;
    public final List<Long> customEventIds;

    /** Nodes this entry removes from the topology (left or failed). */
    public final List<UUID> departed;

    /** Nodes this entry adds to the topology: each starts from here, and needs no entry before this one. */
    public final List<UUID> joined;

    /** The znode's raw data when it is a parts manifest (its parts are deleted with it), else null. */
    public final byte[] manifest;

    public LogEntry(long seq, String path, long lastEventId, List<Long> customEventIds, List<UUID> departed,
        List<UUID> joined, byte[] manifest) {
        this.seq = seq;
        this.path = path;
        this.lastEventId = lastEventId;
        this.customEventIds = customEventIds;
        this.departed = departed;
        this.joined = joined;
        this.manifest = manifest;
    }
}
