package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The coordinator's verdict, first in its entry, before the NODE_FAILED events of the nodes it removes (a custom event
 * of a sender just removed would be skipped, and the coordinator may remove itself): the round is over, and every call
 * that waited on it returns or throws, by the names here. Never handed to Ignite.
 */
final class RoundEnd extends RoundMessage {
    private static final long serialVersionUID = 1L;

    final UUID round;
    final ArrayList<UUID> killed;

    /** How the verdict came: the resolver's decision, every node reaching every other, a failed check. */
    final String why;

    RoundEnd(UUID round, List<UUID> killed, String why) {
        this.round = round;
        this.killed = new ArrayList<>(killed);
        this.why = why;
    }

    @Override public String toString() {
        return "communication failure round " + round + " ended (" + why + "), removed " + killed;
    }
}
