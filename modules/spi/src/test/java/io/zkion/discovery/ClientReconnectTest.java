package io.zkion.discovery;

import java.util.List;
import java.util.UUID;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/** A client whose session expires rejoins under a new id and keeps working. */
public class ClientReconnectTest extends ZkIonTestSupport {
    @Test(timeout = 180_000) public void clientRejoinsAfterSessionExpiry() throws Exception {
        Ignite s1 = start("s1");
        start("s2");
        Ignite c = startClient("c1");
        List<Integer> clientEvents = recordReconnects(c);

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

    /**
     * A client's session ends under a send (a pause past the session timeout), and Curator runs the append again in
     * its new session: the send must fail, as Ignite expects of a disconnected client, not return as sent while the
     * message lands as one of a node the cluster took out, which nobody delivers (the chaos run saw this).
     */
    @Test(timeout = 120_000) public void aSendWhoseSessionEndedUnderItFails() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1");
        List<String> got = CustomMessageTest.pingsAndAcks(s1);
        java.util.concurrent.atomic.AtomicBoolean expired = new java.util.concurrent.atomic.AtomicBoolean();
        io.zkion.discovery.engine.NodeEngine engine = spiOf(c1).engine();

        engine.zkFaultsForTest(new io.zkion.discovery.zk.ZkFaults.Quiet() {
            @Override public boolean failBeforeCommit(List<org.apache.curator.framework.api.transaction.CuratorOp> ops) {
                boolean append = ops.stream().anyMatch(o -> o.getTypeAndPath().getForPath().contains("/log/e-")
                    || o.getTypeAndPath().getForPath().contains("/custom/c-"));

                if (!append || !expired.compareAndSet(false, true))
                    return false;

                try {
                    String old = engine.sessionId();

                    engine.expireSessionOnServerForTest();
                    await("a new session", 20_000, () -> !engine.sessionId().equals(old));
                }
                catch (Exception e) {
                    throw new IllegalStateException(e);
                }

                return false; // Sent now, in the new session, as Curator's retry would.
            }
        });

        boolean returned;

        try {
            ((IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("cut"));
            returned = true;
        }
        catch (Exception e) {
            assertTrue("the send failed as a disconnected client's: " + e, org.apache.ignite.internal.util.typedef.X
                .hasCause(e, org.apache.ignite.IgniteClientDisconnectedException.class,
                    org.apache.ignite.internal.IgniteClientDisconnectedCheckedException.class));
            returned = false;
        }

        assertTrue("the session ended under the send", expired.get());

        // Either the send failed, or it went out from the client's new incarnation (its rejoin was that quick) and is
        // delivered; never returned as sent and delivered by nobody.
        if (returned)
            await("a send that returned is delivered", 10_000, () -> got.contains("ping cut"));
        else {
            Thread.sleep(2_000); // A landed copy would be delivered, or skipped, within moments.
            assertFalse("s1 delivered nothing of a send that failed: " + got, got.contains("ping cut"));
        }
    }
}
