package io.zkion.discovery.resolve;

import io.zkion.discovery.internal.InternalMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/** A round's entry in the log: applied by every node alike, never acked by Ignite, never mutated. */
abstract class RoundMessage implements InternalMessage {
    private static final long serialVersionUID = 1L;

    @Override public DiscoverySpiCustomMessage ackMessage() {
        return null;
    }

    @Override public boolean isMutable() {
        return false;
    }

    @Override public boolean stopProcess() {
        return false;
    }
}
