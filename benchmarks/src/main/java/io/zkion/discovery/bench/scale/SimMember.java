package io.zkion.discovery.bench.scale;

import java.util.Collections;
import java.util.UUID;
import io.zkion.discovery.config.Codecs;
import io.zkion.discovery.config.ZooKeeperConnector;
import io.zkion.discovery.engine.NodeEngine;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.ignite.cache.CacheMetrics;
import org.apache.ignite.cluster.ClusterMetrics;
import org.apache.ignite.internal.ClusterMetricsSnapshot;
import org.apache.ignite.internal.IgniteVersionUtils;
import org.apache.ignite.spi.discovery.DiscoveryMetricsProvider;

/**
 * One simulated member: ZkIon's real engine, with its own ZooKeeper session, on a {@link SimHost}. It runs what the
 * SPI runs between Ignite and ZooKeeper, and nothing of Ignite's kernal.
 */
final class SimMember {
    /** The SPI's default request limit: ZooKeeper's default {@code jute.maxbuffer}. */
    private static final int REQUEST_LIMIT = 0xfffff;

    private static final String[] FORMATS = {"ion-2", "ion-1", "jdk-zlib"};

    final String name;
    final UUID id = UUID.randomUUID();
    private final SimListener lsnr;
    private final SimHost host;
    private final boolean client;
    private CuratorFramework zk;
    private volatile NodeEngine engine;

    SimMember(String name, NodeDataSample sample, boolean client, JvmTally tally, SimComms comms) {
        this.name = name;
        this.client = client;
        this.lsnr = new SimListener(tally);
        this.host = new SimHost(name, id, sample, lsnr, comms);
    }

    /** Connects and joins; returns once this member has its own NODE_JOINED. */
    void start(String connect, String root, long sessionTimeout, long joinTimeout) {
        zk = new ZooKeeperConnector(connect, sessionTimeout, null, name, host.log()).connect();

        Codecs codecs = new Codecs(FORMATS, 64L << 20, new SharedValuesMarshaller(), SimMember.class.getClassLoader());
        ZkIonClusterNode local = ZkIonClusterNode.local(id, "127.0.0.1:" + name, IgniteVersionUtils.VER, host.nodeAttributes(), Collections.singletonList("127.0.0.1"),
            Collections.emptyList(), client, new NoMetrics());

        engine = new NodeEngine(zk, root, REQUEST_LIMIT, codecs.formats, codecs.control, codecs.objects, host, local,
            joinTimeout, true, new DiscoveryMetrics());

        NodeEngine e = engine;

        host.topology(e::topology);
        e.start();
        // Ignite hands the SPI its real context once the kernal has started: the outage guard's peers listen from then.
        e.contextInitialized(host.spiContext());
    }

    NodeEngine engine() {
        return engine;
    }

    boolean client() {
        return client;
    }

    long topVer() {
        return lsnr.topVer();
    }

    void stop() {
        NodeEngine e = engine;

        if (e != null) {
            e.contextDestroyed();
            e.stop();
        }

        if (zk != null)
            ZooKeeperConnector.close(zk, name);
    }

    /** Node metrics as a node that does nothing has them. */
    private static final class NoMetrics implements DiscoveryMetricsProvider {
        @Override public ClusterMetrics metrics() {
            return new ClusterMetricsSnapshot();
        }

        @Override public java.util.Map<Integer, CacheMetrics> cacheMetrics() {
            return Collections.emptyMap();
        }
    }
}
