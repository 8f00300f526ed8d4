package io.zkion.discovery;

import org.apache.ignite.mxbean.MXBeanDescription;
import org.apache.ignite.spi.IgniteSpiManagementMBean;
import org.apache.ignite.spi.discovery.DiscoverySpiMBean;

/**
 * The SPI's management bean: the getters of Ignite's stock {@code ZookeeperDiscoverySpiMBean}, under the same names,
 * on top of Ignite's {@link DiscoverySpiMBean}, and ZkIon's own.
 */
@MXBeanDescription("MBean that provides access to ZooKeeper based discovery SPI parameters.")
public interface ZkIonDiscoverySpiMBean extends IgniteSpiManagementMBean, DiscoverySpiMBean {
    @MXBeanDescription("Local node's topology order.")
    long getNodeOrder();

    @MXBeanDescription("ZooKeeper connection string.")
    String getZkConnectionString();

    @MXBeanDescription("ZooKeeper session timeout as the servers granted it, ms.")
    long getZkSessionTimeout();

    @MXBeanDescription("ZooKeeper session id.")
    String getZkSessionId();

    @MXBeanDescription("Communication failures Ignite asked this node to resolve (a client peer's included).")
    long getCommErrorProcNum();

    @MXBeanDescription("Root path in ZooKeeper.")
    String getZkRootPath();

    @MXBeanDescription("The event format the cluster writes, as the log gate says.")
    String getEventFormat();

    @MXBeanDescription("Whether the log gate is open to members' appends, or closed while the coordinator works.")
    String getLogGate();

    @MXBeanDescription("Event log entries not yet trimmed, as this node knows them.")
    long getPendingLogEntries();

    @MXBeanDescription("Times this node became coordinator.")
    long getCoordinatorTakeovers();

    @MXBeanDescription("ZooKeeper outage state: CONNECTED, or DECIDING, FROZEN or CUT_OFF with how long it lasts"
        + " and the custom messages it holds.")
    String getZkOutage();

    @MXBeanDescription("Times this joined node lost ZooKeeper.")
    long getZkOutages();
}
