package io.zkion.discovery.member;

import io.zkion.discovery.zk.ZkPaths;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * An entry of the log that this node never applied is gone: it was trimmed past this node, as the cluster went on
 * without it (it was failed out, or paused past its session timeout). The message names the entry; the engine takes
 * the node out instead of going on past the hole.
 */
public final class LogGapException extends IgniteSpiException {
    private static final long serialVersionUID = 1L;

    private static final String CAUSE = ": it was trimmed before this node read it, so the cluster went on without this"
        + " node (failed out, or paused past its session timeout); stopping rather than skip it";

    private LogGapException(String msg) {
        super(msg);
    }

    /** No entry between the last one applied and the one found after it. */
    static LogGapException missing(ZkPaths paths, long lastApplied, long found) {
        if (ZkPaths.epochOf(found) != ZkPaths.epochOf(lastApplied)) {
            return new LogGapException("Event log entries are missing between " + paths.logEntry(lastApplied)
                + ", the last this node applied, and " + paths.logEntry(found) + " of log epoch "
                + ZkPaths.epochOf(found) + ": the cluster state says that epoch does not follow the entry this node"
                + " applied last" + CAUSE);
        }

        String missing = paths.logEntry(lastApplied + 1) + (found - 1 > lastApplied + 1
            ? " to " + paths.logEntry(found - 1) : "");

        return new LogGapException("Event log entry " + missing + " is missing (this node applied up to "
            + paths.logEntry(lastApplied) + ", and the next entry is " + paths.logEntry(found) + ")" + CAUSE);
    }

    /** An entry listed, or announced by the watch, and gone when this node went to read it. */
    static LogGapException goneBeforeRead(String path) {
        return new LogGapException("Event log entry " + path + " is missing (this node applied up to the one before)"
            + CAUSE);
    }
}
