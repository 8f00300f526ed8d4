package io.zkion.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteNodeAttributes;
import org.apache.ignite.spi.IgniteSpiException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Ignite's default resolver on split topologies (issue 21), the cut links given by the matrix: it keeps the largest
 * group of servers that all reach each other (between groups that do not reach each other at all, ties go to the one
 * with more clients), and removes the other servers and the clients that do not reach every kept server.
 */
public class DefaultResolverSplitTest extends MatrixTestSupport {
    /** Three servers and two clients split 2 | 3: {s1, c1} | {s2, s3, c2}. The side of two servers stays. */
    @Test(timeout = 180_000) public void threeServersAndTwoClientsSplitTwoThree() throws Exception {
        Map<String, Ignite> n = startAll(3, 2);

        cutBetween(List.of("s1", "c1"), List.of("s2", "s3", "c2"), List.of(), n);

        decide(n, "s2", "s1", List.of("s2", "s3"), List.of("c2"), List.of("s1", "c1"));
    }

    /**
     * As the stock SPI's split: {s1, s2} | {s3, c1, c2}. The side with fewer nodes but more servers stays; s3 goes, and
     * so do both clients, which reach no kept server.
     */
    @Test(timeout = 180_000) public void theSideWithMoreServersStaysThoughItHasFewerNodes() throws Exception {
        Map<String, Ignite> n = startAll(3, 2);

        cutBetween(List.of("s1", "s2"), List.of("s3", "c1", "c2"), List.of(), n);

        decide(n, "s1", "s3", List.of("s1", "s2"), List.of(), List.of("s3", "c1", "c2"));
    }

    /**
     * Six servers and five clients in two halves, {s1-s3, c1, c2} | {s4-s6, c3-c5}, with three links across kept
     * (s1-s4, s2-s5, c1-s6). The kept links make every server one connected group, in which Ignite's resolver looks for
     * the largest set of servers that all reach each other: two sets of three tie ({s1-s3} and {s4-s6}) and its search,
     * which counts down from the latest servers, keeps the first it meets, {s4-s6}. The clients do not decide here: only groups that do not reach each other at
     * all are compared by their clients.
     */
    @Test(timeout = 240_000) public void sixServersAndFiveClientsInTwoHalvesWithThreeLinksAcross() throws Exception {
        Map<String, Ignite> n = startAll(6, 5);

        cutBetween(List.of("s1", "s2", "s3", "c1", "c2"), List.of("s4", "s5", "s6", "c3", "c4", "c5"),
            List.of("s1|s4", "s2|s5", "c1|s6"), n);

        decide(n, "s4", "s2", List.of("s4", "s5", "s6"), List.of("c3", "c4", "c5"), List.of("s1", "s2", "s3", "c1", "c2"));
    }

    private Map<String, Ignite> startAll(int servers, int clients) {
        Map<String, Ignite> n = new HashMap<>();

        for (int i = 1; i <= servers; i++)
            n.put("s" + i, start("s" + i));

        for (int i = 1; i <= clients; i++)
            n.put("c" + i, startClient("c" + i));

        return n;
    }

    /** Cuts every link between {@code a} and {@code b} but the {@code kept} ones ("x|y"). */
    private static void cutBetween(List<String> a, List<String> b, List<String> kept, Map<String, Ignite> n) {
        for (String x : a) {
            for (String y : b) {
                if (!kept.contains(x + '|' + y) && !kept.contains(y + '|' + x))
                    MatrixCommunicationSpi.cut(x, y);
            }
        }
    }

    /**
     * {@code caller} reports {@code peer}; the verdict must keep exactly {@code servers} and the clients {@code clients}
     * (under their ids), and remove the nodes {@code removed}: the call throws, as {@code peer} is among them.
     */
    private void decide(Map<String, Ignite> n, String caller, String peer, List<String> servers, List<String> clients,
        List<String> removed) throws Exception {
        Ignite keeper = n.get(caller);
        Map<String, UUID> ids = new HashMap<>();

        for (Map.Entry<String, Ignite> e : n.entrySet())
            ids.put(e.getKey(), e.getValue().cluster().localNode().id());

        assertTrue("peer " + peer + " is to be removed", removed.contains(peer));

        Throwable t = resolve(keeper, n.get(peer)).get(90, TimeUnit.SECONDS);

        assertTrue("the call threw Ignite's node failed: " + t, t instanceof IgniteSpiException
            && t.getMessage().contains(ids.get(peer).toString()));

        // A removed client may rejoin under a new id: its old id is what must be gone.
        await("the removed nodes gone from " + caller + "'s topology", 60_000,
            () -> removed.stream().noneMatch(r -> keeper.cluster().node(ids.get(r)) != null));

        awaitRoundOver();

        List<String> serverNames = new ArrayList<>();

        for (ClusterNode s : keeper.cluster().forServers().nodes())
            serverNames.add(s.attribute(IgniteNodeAttributes.ATTR_IGNITE_INSTANCE_NAME));

        Collections.sort(serverNames);
        assertEquals("the servers kept", servers, serverNames);

        for (String c : clients)
            assertTrue(c + " kept under its id", keeper.cluster().node(ids.get(c)) != null);

        // Discovery goes on: a new server joins the survivors.
        Ignite late = start("late");

        await("the new server in " + caller + "'s topology", 30_000,
            () -> keeper.cluster().node(late.cluster().localNode().id()) != null);
    }
}
