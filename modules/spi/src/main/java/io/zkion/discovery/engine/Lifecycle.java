package io.zkion.discovery.engine;

import io.zkion.discovery.engine.NodeEngine.State;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The node's state, changed only by the transitions below, each one compare-and-set: Ignite's thread stops the
 * node while the discovery thread joins, rejoins or gives up, and whichever comes second must see what the first
 * did. A stop always wins: once STOPPED, no transition leads anywhere else.
 * <pre>
 * NEW --startJoining--> JOINING --joined--> JOINED --disconnected--> DISCONNECTED --joined--> JOINED
 * JOINED --leave--> LEAVING
 * JOINED, DISCONNECTED --segmented--> STOPPED
 * any --stop--> STOPPED
 * </pre>
 * LEAVING is a stop under way: Ignite no longer listens, but the node still reads the log and acks while it waits
 * for the coordinator to take its queued messages (a log rollover's drain waits for every member's ack first).
 */
final class Lifecycle {
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

    State state() {
        return state.get();
    }

    boolean is(State s) {
        return state.get() == s;
    }

    /** NEW to JOINING. */
    boolean startJoining() {
        return state.compareAndSet(State.NEW, State.JOINING);
    }

    /** JOINING or DISCONNECTED (a client rejoining) to JOINED; false if the node stopped meanwhile. */
    boolean joined() {
        return moveFrom(State.JOINING, State.DISCONNECTED, State.JOINED);
    }

    /** JOINED to LEAVING; false if the node is not in the cluster, or stopped meanwhile. */
    boolean leave() {
        return state.compareAndSet(State.JOINED, State.LEAVING);
    }

    /** @return Whether this node reads the log and acks: JOINED, or LEAVING while its stop waits on its queue. */
    boolean reads() {
        State s = state.get();

        return s == State.JOINED || s == State.LEAVING;
    }

    /** JOINED to DISCONNECTED: a client lost the cluster and rejoins; false if the node stopped meanwhile. */
    boolean disconnected() {
        return state.compareAndSet(State.JOINED, State.DISCONNECTED);
    }

    /**
     * JOINED to STOPPED: this node is out of the cluster for good. Also from DISCONNECTED, where a client that
     * failed to rejoin ends up.
     *
     * @return Whether this call stopped the node, so it is the one to report it; false if it was stopped already.
     */
    boolean segmented() {
        return moveFrom(State.JOINED, State.DISCONNECTED, State.STOPPED);
    }

    /** Any state to STOPPED. @return The state before. */
    State stop() {
        while (true) {
            State prev = state.get();

            if (state.compareAndSet(prev, State.STOPPED))
                return prev;
        }
    }

    private boolean moveFrom(State a, State b, State to) {
        while (true) {
            State s = state.get();

            if (s != a && s != b)
                return false;

            if (state.compareAndSet(s, to))
                return true;
        }
    }
}
