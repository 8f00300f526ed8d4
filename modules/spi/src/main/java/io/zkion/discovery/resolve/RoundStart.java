package io.zkion.discovery.resolve;

import java.util.UUID;

/**
 * The coordinator's entry that opens a communication-failure round: every node of the topology at this place in the
 * log checks whom it reaches and reports it. Never handed to Ignite.
 */
final class RoundStart extends RoundMessage {
    private static final long serialVersionUID = 1L;

    final UUID round;

    RoundStart(UUID round) {
        this.round = round;
    }

    @Override public String toString() {
        return "communication failure round " + round + " started";
    }
}
