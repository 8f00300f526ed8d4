package io.zkion.discovery.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.internal.MetricsRoutes.Route;
import org.apache.ignite.lang.IgniteProductVersion;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

/**
 * The 2.18 line's metrics exchange sends 2N messages a period instead of N², and a node of an older release, which
 * takes only each node's own metrics, still gets every node's; under an older coordinator all send to all.
 */
public class MetricsRoutesTest {
    @Test public void eachNodeSendsTheCoordinatorItsOwnAndTheCoordinatorRelaysThemAll() {
        List<ZkIonClusterNode> nodes = nodes(100, 0);
        ZkIonClusterNode crd = nodes.get(0);

        assertSame(crd, MetricsRoutes.coordinator(nodes));
        assertEquals(Route.RELAYED, MetricsRoutes.route(crd, crd, nodes.get(5)));
        assertEquals(Route.OWN, MetricsRoutes.route(nodes.get(5), crd, crd));
        assertEquals(Route.NONE, MetricsRoutes.route(nodes.get(5), crd, nodes.get(6)));
        assertEquals("messages a period", 2 * 99, sent(nodes));
    }

    @Test public void aNodeWithoutTheRelayGetsEveryNodesOwnMetrics() {
        List<ZkIonClusterNode> nodes = nodes(10, 3);
        ZkIonClusterNode crd = nodes.get(0);

        for (ZkIonClusterNode older : nodes.subList(7, 10)) {
            for (ZkIonClusterNode from : nodes) {
                if (from != older)
                    assertEquals(from + " to " + older, Route.OWN, MetricsRoutes.route(from, crd, older));
            }
        }
    }

    @Test public void underACoordinatorWithoutTheRelayAllSendToAll() {
        List<ZkIonClusterNode> nodes = nodes(10, 10);

        assertEquals("messages a period", 10 * 9, sent(nodes));
    }

    @Test public void theCoordinatorIsTheOldestServer() {
        ZkIonClusterNode client = node(1, true, true);
        ZkIonClusterNode server = node(2, false, true);

        assertSame(server, MetricsRoutes.coordinator(List.of(client, server)));
        assertEquals(null, MetricsRoutes.coordinator(List.of(client)));
    }

    /** @return How many messages all {@code nodes} send in one period. */
    private static int sent(List<ZkIonClusterNode> nodes) {
        ZkIonClusterNode crd = (ZkIonClusterNode)MetricsRoutes.coordinator(nodes);
        int n = 0;

        for (ZkIonClusterNode from : nodes) {
            for (ZkIonClusterNode to : nodes) {
                if (from != to && MetricsRoutes.route(from, crd, to) != Route.NONE)
                    n++;
            }
        }

        return n;
    }

    /** @return {@code count} servers in order, the last {@code older} of them without the relay. */
    private static List<ZkIonClusterNode> nodes(int count, int older) {
        List<ZkIonClusterNode> out = new ArrayList<>();

        for (int i = 0; i < count; i++)
            out.add(node(i + 1, false, i < count - older));

        return out;
    }

    private static ZkIonClusterNode node(long order, boolean client, boolean relays) {
        Map<String, Object> attrs = relays ? MetricsRoutes.withCapability(new HashMap<>()) : new HashMap<>();
        ZkIonClusterNode n = new ZkIonClusterNode(UUID.randomUUID(), UUID.randomUUID().toString(),
            IgniteProductVersion.fromString("2.18.0"), attrs, Collections.singleton("127.0.0.1"),
            Collections.singleton("localhost"), client);

        n.order(order);

        return n;
    }
}
