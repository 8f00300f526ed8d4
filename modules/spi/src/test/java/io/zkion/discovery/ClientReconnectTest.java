package io.zkion.discovery;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.events.EventType;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

/** A client whose session expires rejoins under a new id and keeps working. */
public class ClientReconnectTest extends ZkIonTestSupport {
    @Test(timeout = 180_000) public void clientRejoinsAfterSessionExpiry() throws Exception {
        Ignite s1 = start("s1");
        start("s2");
        Ignite c = startClient("c1");
        List<Integer> clientEvents = new CopyOnWriteArrayList<>();

        c.events().localListen(e -> {
            clientEvents.add(e.type());
            return true;
        }, EventType.EVT_CLIENT_NODE_DISCONNECTED, EventType.EVT_CLIENT_NODE_RECONNECTED);

        IgniteCache<Integer, Integer> cache = c.getOrCreateCache("r");

        cache.put(1, 1);

        UUID before = c.cluster().localNode().id();

        spiOf(c).engine().expireSessionForTest();

        await("client reconnected", 60_000, () -> clientEvents.size() >= 2);

        assertEquals(List.of(EventType.EVT_CLIENT_NODE_DISCONNECTED, EventType.EVT_CLIENT_NODE_RECONNECTED), clientEvents);
        assertNotEquals(before, c.cluster().localNode().id());

        await("servers see the client again", 30_000, () -> s1.cluster().forClients().nodes().size() == 1
            && s1.cluster().nodes().size() == 3);

        IgniteCache<Integer, Integer> again = c.cache("r");

        again.put(2, 2);

        assertEquals(Integer.valueOf(1), s1.<Integer, Integer>cache("r").get(1));
        assertEquals(Integer.valueOf(2), s1.<Integer, Integer>cache("r").get(2));
    }
}
