package io.zkion.discovery.chaos;

import java.util.Objects;

/** A broken promise the run found: which check, and what exactly was seen. */
final class Violation {
    /** Survivors disagree on, or miss, the discovery event of a topology version. */
    static final String EVENTS = "same-events-per-topology-version";
    /** A custom message (or its ack) lost, delivered twice, or out of the one order. */
    static final String MESSAGES = "custom-messages-once";
    /** An acknowledged cache write not read back. */
    static final String CACHE = "acknowledged-writes-kept";
    /** A node failed by the others went on delivering, or a paused node came back not segmented. */
    static final String HALF_ALIVE = "no-half-alive-node";
    /** Znodes left after the cluster stopped. */
    static final String ZNODES = "no-znode-left";
    /** A node exited with no fault aimed at it (wrongly segmented, crashed), or did not stop cleanly when asked. */
    static final String UNPLANNED_EXIT = "no-unplanned-exit";
    /** A client the cluster failed with no fault aimed at it: it rejoins under a new id, so no exit shows it. */
    static final String UNPLANNED_FAILURE = "no-unplanned-failure";
    /** A send, put or command failed on a node no fault was aimed at. */
    static final String CALLS = "no-failed-call";
    /** A count the report prints is not what the run's promises make it. */
    static final String COUNTS = "counts-add-up";
    /** The cluster did not settle again after a fault. */
    static final String RECOVERY = "recovery";

    final String check;
    final String detail;
    /** The fault after which it was found (0: before the first), set by the run. */
    int fault;

    Violation(String check, String detail) {
        this.check = check;
        this.detail = detail;
    }

    @Override public boolean equals(Object o) {
        return o instanceof Violation && ((Violation)o).check.equals(check) && ((Violation)o).detail.equals(detail);
    }

    @Override public int hashCode() {
        return Objects.hash(check, detail);
    }

    @Override public String toString() {
        return check + ": " + detail;
    }
}
