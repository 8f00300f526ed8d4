package io.zkion.discovery.zk;

import java.util.List;
import io.zkion.discovery.internal.TestSeam;
import org.apache.curator.framework.api.transaction.CuratorOp;

/**
 * Faults a test injects into a node's ZooKeeper calls, as production brings them: a reply lost after ZooKeeper applied the
 * {@code multi}, which Curator then sends again (the replay fails on what the first try wrote, or lands twice); a
 * multi that never reached ZooKeeper; a listing or a watch that fails with an error Curator does not retry; and a ZooKeeper slow
 * to answer while a node makes its layout, or slow to answer many reads.
 */
@TestSeam
public interface ZkFaults {
    /** No faults. */
    ZkFaults NONE = new Quiet();

    /** Injects nothing: a test extends it and overrides only the faults it is about. */
    class Quiet implements ZkFaults {
        @Override public boolean loseReplyAfterCommit(List<CuratorOp> ops) {
            return false;
        }
    }

    /** Throws {@code fault}, one of the errors below, if the test gave one. */
    static void raise(Exception fault) throws Exception {
        if (fault != null)
            throw fault;
    }

    /**
     * @return Whether this multi's reply is lost once ZooKeeper applied it: the store sends it again, as Curator does,
     *      and the caller gets what the second try got.
     */
    boolean loseReplyAfterCommit(List<CuratorOp> ops);

    /** @return Whether this multi fails without reaching ZooKeeper, as with a connection lost before it was sent. */
    default boolean failBeforeCommit(List<CuratorOp> ops) {
        return false;
    }

    /**
     * @return The error ZooKeeper refuses this multi with, without applying it, or null to send it: a failed version
     *      check, say, which the coordinator takes for a successor's write and resigns on.
     */
    default Exception refuseCommit(List<CuratorOp> ops) {
        return null;
    }

    /** Runs as a node starts to make the layout: a test holds it there, as a ZooKeeper slow to answer would. */
    default void beforeLayout() throws InterruptedException {
        // No fault.
    }

    /** @return The error to fail this listing of {@code path}'s children with, or null to list them. */
    default Exception failListing(String path) {
        return null;
    }

    /** Runs as a read of {@code path}, one of many in flight together, is sent. */
    default void readSent(String path) {
        // No fault.
    }

    /** Runs as the reply to a read of {@code path}, one of many in flight together, is handled: a test slows them so. */
    default void readReplied(String path) {
        // No fault.
    }

    /** @return The error to fail a check of whether {@code path} exists with (a client closed under it), or null. */
    default Exception failRead(String path) {
        return null;
    }

    /** @return The error to fail a write of {@code path}'s data with (an ack), or null to write it. */
    default Exception failWrite(String path) {
        return null;
    }

    /** @return The error to fail setting a watch on {@code path} with, or null to set it. */
    default Exception failWatch(String path) {
        return null;
    }
}
