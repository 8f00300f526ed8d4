package io.zkion.discovery;

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
    /** Declared here, not inherited: Ignite's multi-JVM tests look it up with getDeclaredMethod. */
    private ZkIonDiscoverySpi cloneSpiConfiguration() {
        return copyConfigurationTo(new ZkIonDiscoverySpi());
    }
}
