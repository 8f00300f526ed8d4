package io.zkion.discovery;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.processors.metric.MetricRegistryImpl;
import org.apache.ignite.spi.metric.LongMetric;
import org.apache.ignite.spi.metric.ObjectMetric;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The metrics Ignite's stock ZooKeeper SPI publishes are in {@code io.discovery} under the same names, so dashboards
 * keep working after a migration; ZkIon's own are in {@code io.discovery.zkion}.
 */
public class MetricsTest extends ZkIonTestSupport {
    @Test(timeout = 60_000) public void stockNamesInIoDiscoveryAndOursBesideThem() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");

        Ignition.stop(s2.name(), true);
        nodes.remove(s2);

        await("s2 gone from s1", 30_000, () -> s1.cluster().nodes().size() == 1);

        MetricRegistryImpl stock = ((IgniteEx)s1).context().metric().registry("io.discovery");
        MetricRegistryImpl own = ((IgniteEx)s1).context().metric().registry("io.discovery.zkion");

        assertEquals("its own join and s2's", 2, stock.<LongMetric>findMetric("JoinedNodes").value());
        assertEquals(1, stock.<LongMetric>findMetric("LeftNodes").value());
        assertEquals(0, stock.<LongMetric>findMetric("FailedNodes").value());
        assertEquals(0, stock.<LongMetric>findMetric("CommunicationErrors").value());
        assertEquals(3, stock.<LongMetric>findMetric("CurrentTopologyVersion").value());
        assertEquals(s1.cluster().localNode().id(), stock.<ObjectMetric<?>>findMetric("Coordinator").value());
        assertNotNull(own.findMetric("PendingLogEntries"));
        assertNotNull(own.findMetric("SessionsLost"));
        assertNotNull(own.findMetric("UndeliverableCustomEvents"));
    }

    /** The management bean, read through JMX as an operator's console reads it. */
    @Test(timeout = 60_000) public void theMxBeanAnswersThroughJmx() throws Exception {
        Ignite s1 = start("s1");

        start("s2");

        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = jmx.queryNames(new ObjectName("org.apache:igniteInstanceName=s1,group=SPIs,*"), null);
        ObjectName bean = names.stream().filter(n -> n.toString().contains("ZkIonDiscoverySpi")).findFirst()
            .orElseThrow(() -> new AssertionError("No ZkIon bean among " + names));

        assertEquals(root, jmx.getAttribute(bean, "ZkRootPath"));
        assertEquals(1L, jmx.getAttribute(bean, "NodeOrder"));
        assertEquals("JOINED", jmx.getAttribute(bean, "SpiState"));
        assertEquals(s1.cluster().localNode().id(), jmx.getAttribute(bean, "Coordinator"));
        assertEquals((long)SESSION_TIMEOUT, jmx.getAttribute(bean, "ZkSessionTimeout"));
        // The coordinator closes the gate for moments (a join, a mutable message: Ignite sends some as s2 starts).
        await("the gate is open", 10_000, () -> {
            try {
                return "open".equals(jmx.getAttribute(bean, "LogGate"));
            }
            catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals("ion-2", jmx.getAttribute(bean, "EventFormat"));
        assertEquals(1L, jmx.getAttribute(bean, "CoordinatorTakeovers"));
        assertTrue(((String)jmx.getAttribute(bean, "ZkSessionId")).startsWith("0x"));
    }

    /**
     * With the SPI's {@code name} set to the stock SPI's, the bean has the stock SPI's ObjectName, so that an
     * exporter's rules written for it (a JMX exporter's pattern on {@code name=ZookeeperDiscoverySpi}) keep matching,
     * with the stock bean's attributes under their names.
     */
    @Test(timeout = 60_000) public void theStockNameKeepsAnExportersObjectName() throws Exception {
        Ignite s1 = start(config("s1", false).setDiscoverySpi((ZkIonDiscoverySpi)spi().setName("ZookeeperDiscoverySpi")));

        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = jmx.queryNames(
            new ObjectName("org.apache:igniteInstanceName=s1,group=SPIs,name=ZookeeperDiscoverySpi,*"), null);

        assertEquals(names.toString(), 1, names.size());

        ObjectName bean = names.iterator().next();

        for (String stock : new String[] {"ZkConnectionString", "ZkRootPath", "ZkSessionId", "ZkSessionTimeout",
            "NodesJoined", "NodesLeft", "NodesFailed", "CommErrorProcNum", "Coordinator", "SpiState"})
            assertNotNull(stock, jmx.getAttribute(bean, stock));

        assertEquals(s1.cluster().localNode().id(), jmx.getAttribute(bean, "Coordinator"));
        assertTrue(jmx.queryNames(new ObjectName("org.apache:igniteInstanceName=s1,group=SPIs,name=ZkIonDiscoverySpi,*"),
            null).isEmpty());
    }
}
