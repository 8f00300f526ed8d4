package io.zkion.discovery.coordinator;

import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;

/**
 * The log gate as this coordinator last wrote or read it, and what its next commit makes of it. Members append to
 * the log only while the gate is open: the coordinator closes it where the log's tail must stand still, and its
 * next commit opens it again, unless a join pass holds it closed across the commits of several joins.
 * <p>
 * The gate is written only by a commit: {@link FencedLogWriter} asks {@link #toWrite} what that commit writes to
 * the gate and reports it landed with {@link #committed}. Every change of state is a method here.
 */
final class Gate {
    /** Where the gate is, and what the next commit does with it. */
    enum State {
        /** Open; a commit leaves it open. */
        OPEN,

        /** Open; the commit under way closes it. */
        CLOSING,

        /** Closed; the next commit opens it. */
        CLOSED,

        /** Closed; commits leave it closed until it is released. */
        HELD
    }

    private final ZkStore store;
    private final ZkPaths paths;
    private final ControlCodec codec;

    private State state = State.OPEN;

    /** The format members write in, as the gate says. */
    private String format;

    /** The log epoch members write in, as the gate says. */
    private long epoch;

    Gate(CoordinatorContext ctx) {
        this.store = ctx.store;
        this.paths = ctx.paths;
        this.codec = ctx.codec;
    }

    /** Takes the gate as it stands in ZooKeeper: OPEN or CLOSED. */
    void read() throws Exception {
        byte[] data = store.read(paths.gate);

        if (data == null)
            throw new FencedException("the log gate znode " + paths.gate + " is gone");

        GateState g = codec.decodeGate(data, paths.gate);

        state = g.open ? State.OPEN : State.CLOSED; // A predecessor died holding it: the first step opens it.
        format = g.format;
        epoch = g.logEpoch;
    }

    /** @return Whether the gate is closed, as this node last wrote or read it. */
    boolean isClosed() {
        return state == State.CLOSED || state == State.HELD;
    }

    /** OPEN to CLOSING: the next commit closes the gate. */
    void closeWithNextCommit() {
        move(State.OPEN, State.CLOSING);
    }

    /** CLOSING back to OPEN when the commit meant to close the gate failed, and so wrote nothing. */
    void closingEnded() {
        if (state == State.CLOSING)
            state = State.OPEN;
    }

    /** CLOSED to HELD: commits leave the gate closed until {@link #release}. */
    void hold() {
        move(State.CLOSED, State.HELD);
    }

    /** HELD to CLOSED: the next commit opens the gate. Nothing if it is not held. */
    void release() {
        if (state == State.HELD)
            state = State.CLOSED;
    }

    /**
     * @param next The state the commit writes: members write in its format and log epoch.
     * @return What the commit under way writes to the gate znode: the gate as the commit leaves it; null if that
     *      is the gate as it stands.
     */
    GateState toWrite(ClusterState next) {
        boolean closed = state == State.CLOSING || state == State.HELD;

        if (closed == isClosed() && next.format.equals(format) && next.logEpoch == epoch)
            return null;

        return new GateState(!closed, next.format, next.logEpoch);
    }

    /** The commit landed: CLOSING becomes CLOSED and CLOSED becomes OPEN; OPEN and HELD stay. */
    void committed(ClusterState next) {
        format = next.format;
        epoch = next.logEpoch;

        if (state == State.CLOSING)
            state = State.CLOSED;
        else if (state == State.CLOSED)
            state = State.OPEN;
    }

    private void move(State from, State to) {
        if (state != from)
            throw new IllegalStateException("The log gate is " + state + ", not " + from + ": it cannot become " + to);

        state = to;
    }
}
