package io.zkion.discovery.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Clients spread their watches over the servers: the coordinator's failure wakes its share of the clients, not every
 * client while the successor takes over (issue 20: 100 servers and 900 clients).
 */
public class ElderWatchClientOrderTest {
    private static List<Integer> servers(int n) {
        List<Integer> out = new ArrayList<>();

        for (int i = 0; i < n; i++)
            out.add(i); // Oldest first: 0 is the coordinator.

        return out;
    }

    @Test public void aThousandClientsOverAHundredServers() {
        Random rnd = new Random(20); // Ignite's node ids are random (version 4) UUIDs.
        Map<Integer, Integer> watchers = new HashMap<>();

        for (int c = 0; c < 900; c++) {
            UUID id = new UUID(rnd.nextLong(), rnd.nextLong());

            watchers.merge(ElderWatch.clientOrder(id, servers(100)).get(0), 1, Integer::sum);
        }

        // 9 a server on average; a fair spread keeps every server well under a tenth of the clients.
        int most = watchers.values().stream().max(Integer::compare).orElse(0);

        assertTrue("the most clients on one server: " + most + " " + watchers, most <= 30);
        assertTrue("the coordinator's share: " + watchers.get(0), watchers.getOrDefault(0, 0) <= 30);
        assertTrue("servers watched: " + watchers.size(), watchers.size() >= 90);
    }

    @Test public void everyServerIsTriedOnceInTheServersOrder() {
        List<Integer> all = servers(7);

        for (int c = 0; c < 50; c++) {
            List<Integer> order = ElderWatch.clientOrder(UUID.randomUUID(), all);

            assertEquals(new HashSet<>(all), new HashSet<>(order));
            assertEquals(all.size(), order.size());

            int first = order.get(0);

            for (int i = 0; i < order.size(); i++)
                assertEquals("turned, not shuffled: " + order, (int)all.get((first + i) % all.size()), (int)order.get(i));
        }
    }

    @Test public void oneClientKeepsItsServerWhileTheServersStay() {
        UUID id = UUID.randomUUID();

        assertEquals(ElderWatch.clientOrder(id, servers(10)), ElderWatch.clientOrder(id, servers(10)));
        assertEquals(List.of(), ElderWatch.clientOrder(id, List.of()));
        assertEquals(List.of(0), ElderWatch.clientOrder(id, servers(1)));
    }
}
