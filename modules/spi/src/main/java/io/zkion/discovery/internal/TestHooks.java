package io.zkion.discovery.internal;

import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * Hooks Ignite's own tests use to hold a join or drop a message (its {@code IgniteDiscoverySpiInternalListener},
 * which exists in 2.17 only; the SPI of that line adapts it to this).
 */
public interface TestHooks {
    TestHooks NONE = new TestHooks() {
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
