package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;
import io.zkion.discovery.internal.InternalListenerHooks;
import org.apache.ignite.internal.managers.discovery.IgniteDiscoverySpiInternalListener;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.tcp.IgniteDiscoverySpiInternalListenerSupport;

/**
 * The SPI Ignite's tests run on, in the 2.18 line. Ignite 2.18 moved its test hook out of {@code IgniteDiscoverySpi}
 * into {@code IgniteDiscoverySpiInternalListenerSupport}, which ships in ignite-core's tests jar only: the shipped SPI
 * cannot implement it, so the tests get a subclass that does, adapting it to the engine's hooks as the 2.17 SPI does.
 */
final class TestSpis {
    private TestSpis() {
    }

    static ZkIonDiscoverySpi create() {
        return new Hooked();
    }

    /** The shipped SPI, with Ignite 2.18's test hook; a test may extend it (RollingUpgradeModeTest does). */
    static class Hooked extends ZkIonDiscoverySpi implements IgniteDiscoverySpiInternalListenerSupport {
        @Override public void setInternalListener(IgniteDiscoverySpiInternalListener lsnr) {
            testHooks(lsnr == null ? null : new InternalListenerHooks() {
                @Override public void beforeJoin() {
                    lsnr.beforeJoin(getLocalNode(), log);
                }

                @Override public void beforeReconnect() {
                    lsnr.beforeReconnect(getLocalNode(), log);
                }

                @Override public boolean beforeSend(DiscoverySpiCustomMessage msg) {
                    return lsnr.beforeSendCustomEvent(Hooked.this, log, msg);
                }
            });
        }

        /**
         * Ignite's multi-JVM tests ship a copy of the SPI to the remote node's JVM, found with getDeclaredMethod: the
         * shipped SPI's own is not seen from here, and without one the remote node falls back to TCP discovery and
         * forms a cluster of its own.
         */
        private ZkIonDiscoverySpi cloneSpiConfiguration() {
            return copyConfigurationTo(new Hooked());
        }
    }
}
