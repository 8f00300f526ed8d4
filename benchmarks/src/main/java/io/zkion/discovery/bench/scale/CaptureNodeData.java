package io.zkion.discovery.bench.scale;

import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.CacheAtomicityMode;
import org.apache.ignite.cache.CacheMode;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.logger.NullLogger;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;

/**
 * Writes {@link NodeDataSample}: starts two real Ignite 2.17 servers on ZkIon with a configuration of the usual
 * shape (four caches, one of them replicated and transactional), and keeps what the second one's SPI was handed when
 * it joined. Run it again when Ignite's version changes:
 * {@code java $(config/jvm-opens.sh) -cp benchmarks/target/benchmarks.jar io.zkion.discovery.bench.scale.CaptureNodeData
 * benchmarks/src/main/resources/io/zkion/discovery/bench/scale}.
 */
public final class CaptureNodeData {
    private CaptureNodeData() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args.length > 0 ? args[0] : ".");
        Map<UUID, Map<Integer, byte[]>> joining = new ConcurrentHashMap<>();
        Map<UUID, Map<Integer, byte[]>> common = new ConcurrentHashMap<>();

        try (TestingServer zk = new TestingServer(true)) {
            Ignite crd = Ignition.start(config("capture-0", zk.getConnectString(), joining, common));
            Ignite second = Ignition.start(config("capture-1", zk.getConnectString(), joining, common));
            UUID id = second.cluster().localNode().id();
            Map<String, Serializable> attrs = new HashMap<>();

            for (Map.Entry<String, Object> e : second.cluster().localNode().attributes().entrySet())
                attrs.put(e.getKey(), portable(e.getValue()));

            NodeDataSample s = new NodeDataSample(second.version().toString(), attrs, joining.get(id), common.get(id));

            Ignition.stop(second.name(), true);
            Ignition.stop(crd.name(), true);

            try (OutputStream out = Files.newOutputStream(dir.resolve(NodeDataSample.RESOURCE));
                 ObjectOutputStream oos = new ObjectOutputStream(out)) {
                oos.writeObject(s);
            }

            System.out.println("Wrote " + dir.resolve(NodeDataSample.RESOURCE) + ": " + s);
        }
    }

    private static Serializable portable(Object v) throws Exception {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean)
            return (Serializable)v;

        return new JdkMarshaller().marshal(v);
    }

    private static IgniteConfiguration config(String name, String zk, Map<UUID, Map<Integer, byte[]>> joining,
        Map<UUID, Map<Integer, byte[]>> common) {
        ZkIonDiscoverySpi spi = new ZkIonDiscoverySpi() {
            @Override public void setDataExchange(DiscoverySpiDataExchange exchange) {
                super.setDataExchange(new DiscoverySpiDataExchange() {
                    @Override public DiscoveryDataBag collect(DiscoveryDataBag bag) {
                        DiscoveryDataBag res = exchange.collect(bag);

                        joining.putIfAbsent(bag.joiningNodeId(), marshalled(bag.joiningNodeData()));

                        if (!bag.commonData().isEmpty())
                            common.put(bag.joiningNodeId(), marshalled(bag.commonData()));

                        return res;
                    }

                    @Override public void onExchange(DiscoveryDataBag bag) {
                        exchange.onExchange(bag);
                    }
                });
            }
        };

        spi.setZkConnectionString(zk);
        spi.setZkRootPath("/capture");

        TcpCommunicationSpi comm = new TcpCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        return new IgniteConfiguration()
            .setIgniteInstanceName(name)
            .setLocalHost("127.0.0.1")
            .setGridLogger(new NullLogger())
            .setDiscoverySpi(spi)
            .setCommunicationSpi(comm)
            .setMetricsLogFrequency(0)
            .setCacheConfiguration(
                new CacheConfiguration<>("accounts").setBackups(1).setAtomicityMode(CacheAtomicityMode.TRANSACTIONAL),
                new CacheConfiguration<>("sessions").setBackups(1),
                new CacheConfiguration<>("events").setBackups(2).setStatisticsEnabled(true),
                new CacheConfiguration<>("reference").setCacheMode(CacheMode.REPLICATED))
            .setDataStorageConfiguration(new DataStorageConfiguration().setDefaultDataRegionConfiguration(
                new DataRegionConfiguration().setName("default").setInitialSize(16L << 20).setMaxSize(64L << 20)));
    }

    private static Map<Integer, byte[]> marshalled(Map<Integer, Serializable> m) {
        Map<Integer, byte[]> res = new HashMap<>();

        try {
            for (Map.Entry<Integer, Serializable> e : m.entrySet())
                res.put(e.getKey(), new JdkMarshaller().marshal(e.getValue()));
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }

        return res;
    }
}
