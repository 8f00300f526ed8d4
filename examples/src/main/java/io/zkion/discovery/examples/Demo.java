package io.zkion.discovery.examples;

import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.ZkIonDiscoverySpi;
import io.zkion.discovery.tools.IonStateDump;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.events.DiscoveryEvent;
import org.apache.ignite.events.EventType;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/**
 * The demo: an embedded ZooKeeper, three Ignite servers and a client on ZkIonDiscoverySpi. It prints the
 * discovery events one node sees, uses a cache from the client, stops a server gracefully, shows the Ion
 * text dump of the discovery state, and shuts everything down.
 */
public final class Demo {
    private static final String ROOT = "/zkion-demo";

    private Demo() {
    }

    /** Held, so that the levels stay: java.util.logging keeps loggers only weakly. */
    private static final java.util.logging.Logger[] QUIETER = {
        java.util.logging.Logger.getLogger("org.apache.zookeeper"),
        java.util.logging.Logger.getLogger("org.apache.curator")
    };

    public static void main(String[] args) throws Exception {
        // ZooKeeper's client logs every connection at INFO: the demo shows its warnings only.
        for (java.util.logging.Logger l : QUIETER)
            l.setLevel(java.util.logging.Level.WARNING);

        System.setProperty("IGNITE_QUIET", "true");
        System.setProperty("IGNITE_UPDATE_NOTIFIER", "false");

        List<Ignite> nodes = new ArrayList<>();

        // Resources close in reverse: the nodes stop while ZooKeeper is still up, then ZooKeeper stops.
        try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(); AutoCloseable stopNodes = () -> stopAll(nodes)) {
            say("ZooKeeper (embedded) is up at " + zk.connectString());

            Ignite first = Ignition.start(config("server-1", false, zk.connectString()));

            nodes.add(first);
            first.events().localListen(e -> {
                DiscoveryEvent d = (DiscoveryEvent)e;

                say("server-1 sees " + d.name() + ": node order " + d.eventNode().order()
                    + (d.eventNode().isClient() ? " (client)" : "") + ", topology version " + d.topologyVersion()
                    + ", " + d.topologyNodes().size() + " node(s)");

                return true;
            }, EventType.EVT_NODE_JOINED, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED);

            say("server-1 started; it created the cluster and is its coordinator");

            nodes.add(Ignition.start(config("server-2", false, zk.connectString())));
            nodes.add(Ignition.start(config("server-3", false, zk.connectString())));

            Ignite client = Ignition.start(config("client-1", true, zk.connectString()));

            nodes.add(client);
            say("client-1 started; it sees " + client.cluster().nodes().size() + " nodes");

            IgniteCache<Integer, String> cache = client.getOrCreateCache(new CacheConfiguration<Integer, String>("demo")
                .setBackups(1));

            for (int i = 0; i < 100; i++)
                cache.put(i, "value-" + i);

            say("client-1 created cache 'demo' (a custom discovery event) and wrote 100 entries; server-3 reads key 42: "
                + nodes.get(2).cache("demo").get(42));

            Ignite leaving = nodes.remove(1);

            say("stopping server-2 gracefully...");
            Ignition.stop(leaving.name(), true);
            Thread.sleep(500);

            say("server-1 now sees " + first.cluster().nodes().size() + " nodes; key 42 is still " + cache.get(42));

            try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.connectString(), new ExponentialBackoffRetry(200, 3))) {
                c.start();
                say("the discovery state in ZooKeeper, as Ion text:\n" + new IonStateDump(c, ROOT).dump());
            }

            ZkIonDiscoverySpi spi = (ZkIonDiscoverySpi)first.configuration().getDiscoverySpi();

            say("server-1 (coordinator) wrote " + spi.discoveryMetrics().logEntriesWritten() + " log entries, "
                + spi.discoveryMetrics().bytesWritten() + " bytes of payload to ZooKeeper, and trimmed "
                + spi.discoveryMetrics().entriesTrimmed() + " entries every node had acknowledged");
        }

        say("all nodes stopped; demo done");
    }

    private static void stopAll(List<Ignite> nodes) {
        for (int i = nodes.size() - 1; i >= 0; i--)
            Ignition.stop(nodes.get(i).name(), true);
    }

    static IgniteConfiguration config(String name, boolean client, String zk) {
        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        return new IgniteConfiguration()
            .setIgniteInstanceName(name)
            .setClientMode(client)
            .setLocalHost("127.0.0.1")
            .setDiscoverySpi(new ZkIonDiscoverySpi().setZkConnectionString(zk).setZkRootPath(ROOT))
            .setCommunicationSpi(comm)
            .setIncludeEventTypes(EventType.EVT_NODE_JOINED, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED)
            .setDataStorageConfiguration(new DataStorageConfiguration().setDefaultDataRegionConfiguration(
                new DataRegionConfiguration().setName("default").setInitialSize(32L << 20).setMaxSize(128L << 20)))
            .setMetricsLogFrequency(0);
    }

    private static void say(String s) {
        System.out.println("[demo] " + s);
    }
}
