package io.zkion.discovery.internal;

import java.util.List;

/** What a node remembers of one untrimmed log entry: enough to trim it and to ack its custom events. */
final class LogEntry {
    final long seq;
    final String path;
    final long lastEventId;
    final List<Long> customEventIds;

    /** The znode's raw data when it is a parts manifest (its parts are deleted with it), else null. */
    final byte[] manifest;

    LogEntry(long seq, String path, long lastEventId, List<Long> customEventIds, byte[] manifest) {
        this.seq = seq;
        this.path = path;
        this.lastEventId = lastEventId;
        this.customEventIds = customEventIds;
        this.manifest = manifest;
    }
}
