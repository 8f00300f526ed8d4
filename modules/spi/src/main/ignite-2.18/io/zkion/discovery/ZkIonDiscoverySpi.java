package io.zkion.discovery;

import java.util.ArrayList;
import java.util.Map;
import io.zkion.discovery.internal.MetricsExchange;
import io.zkion.discovery.internal.MetricsRoutes;
import org.apache.ignite.lang.IgniteProductVersion;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.IgniteSpiMultipleInstancesSupport;
import org.apache.ignite.spi.discovery.DiscoverySpiHistorySupport;
import org.apache.ignite.spi.discovery.DiscoverySpiMutableCustomMessageSupport;
import org.apache.ignite.spi.discovery.DiscoverySpiOrderSupport;

/**
 * ZooKeeper discovery for Apache Ignite, on Apache Curator, with Ion event data: set it as
 * {@code IgniteConfiguration.discoverySpi} in place of Ignite's {@code ZookeeperDiscoverySpi}. This is the
 * Ignite 2.18 build.
 */
@IgniteSpiMultipleInstancesSupport(true)
@DiscoverySpiOrderSupport(true)
@DiscoverySpiHistorySupport(true)
@DiscoverySpiMutableCustomMessageSupport(false)
public class ZkIonDiscoverySpi extends AbstractZkIonDiscoverySpi {
    /** Node metrics between the nodes, which Ignite 2.18's own exchange fails to hand on (see the class). */
    private transient volatile MetricsExchange metricsExchange;

    @Override protected void onContextInitialized0(IgniteSpiContext spiCtx) throws IgniteSpiException {
        super.onContextInitialized0(spiCtx);

        MetricsExchange x = new MetricsExchange(spiCtx, this::getLocalNode, () -> new ArrayList<>(getRemoteNodes()),
            this::getNode, ignite == null ? null : ignite.name(), log);

        x.start(ignite.configuration().getMetricsUpdateFrequency());
        metricsExchange = x;
    }

    /** Only this line relays metrics: a 2.17 node in a mixed cluster must not be taken for a relay. */
    @Override public void setNodeAttributes(Map<String, Object> attrs, IgniteProductVersion ver) {
        super.setNodeAttributes(MetricsRoutes.withCapability(attrs), ver);
    }

    @Override public void spiStop() throws IgniteSpiException {
        MetricsExchange x = metricsExchange;

        metricsExchange = null;

        if (x != null)
            x.close();

        super.spiStop();
    }

    /** Declared here, not inherited: Ignite's multi-JVM tests look it up with getDeclaredMethod. */
    private ZkIonDiscoverySpi cloneSpiConfiguration() {
        return copyConfigurationTo(new ZkIonDiscoverySpi());
    }
}
