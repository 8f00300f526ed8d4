package io.zkion.discovery;

import java.util.List;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.junit.Test;

/**
 * Every node keeps learning every other node's metrics, also after the coordinator, which relays them on the 2.18
 * line ({@link io.zkion.discovery.internal.MetricsRoutes}), stopped: its successor relays them from then on. On
 * 2.17 Ignite's own exchange carries them; the test holds for both.
 */
public class NodeMetricsTest extends ZkIonTestSupport {
    private static final long PERIOD_MS = 500;

    @Test(timeout = 120_000) public void everyNodeLearnsEveryNodesMetricsAlsoAfterTheCoordinatorStops() throws Exception {
        Ignite s1 = start(cfg("s1", false));
        Ignite s2 = start(cfg("s2", false));
        Ignite s3 = start(cfg("s3", false));
        Ignite c1 = start(cfg("c1", true));

        awaitFreshMetrics(List.of(s1, s2, s3, c1), System.currentTimeMillis());

        Ignition.stop(s1.name(), true);
        nodes.remove(s1);

        awaitFreshMetrics(List.of(s2, s3, c1), System.currentTimeMillis());
    }

    private IgniteConfiguration cfg(String name, boolean client) {
        return config(name, client).setMetricsUpdateFrequency(PERIOD_MS);
    }

    /** Waits until each of {@code all} holds metrics of each other node taken after {@code since}. */
    private static void awaitFreshMetrics(List<Ignite> all, long since) throws InterruptedException {
        for (Ignite at : all) {
            for (Ignite of : all) {
                if (at == of)
                    continue;

                await(at.name() + " has metrics of " + of.name() + " taken after " + since, 30_000, () -> {
                    ClusterNode n = at.cluster().node(of.cluster().localNode().id());

                    return n != null && n.metrics().getLastUpdateTime() > since;
                });
            }
        }
    }
}
