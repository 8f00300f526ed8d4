package io.zkion.discovery.internal;

import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * Adapts Ignite's own test hook, {@code IgniteDiscoverySpiInternalListener}, with which Ignite's tests hold a join
 * or drop a message. The interface exists in Ignite 2.17 only; the SPI of that line adapts it to this, so that the
 * engine compiles against either line.
 */
@TestSeam
public interface InternalListenerHooks {
    InternalListenerHooks NONE = new InternalListenerHooks() {
        @Override public void beforeJoin() {
            // No-op.
        }

        @Override public void beforeReconnect() {
            // No-op.
        }

        @Override public boolean beforeSend(DiscoverySpiCustomMessage msg) {
            return true;
        }
    };

    void beforeJoin();

    void beforeReconnect();

    /** @return False to drop the message. */
    boolean beforeSend(DiscoverySpiCustomMessage msg);
}
