package io.zkion.discovery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.zkion.discovery.CustomMessageTest.Ping;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Only the coordinator logs a custom message's ack, as it trims the message's entry. When it goes before the trim,
 * its successor must log the ack of every message still in the log: the one it delivered itself, and the one sent
 * before it joined, which it never saw; the nodes that delivered them wait for those acks.
 */
public class AckAfterFailoverTest extends ZkIonTestSupport {
    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    @Test(timeout = 120_000) public void theNewCoordinatorLogsTheAcksItsPredecessorOwed() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1");

        listen(s1);
        listen(c1);

        spiOf(s1).engine().coordinatorForTest().holdTrimForTest(true);

        send(c1, "before-join");
        await("both got the first ping", 30_000, () -> has(s1, "ping before-join") && has(c1, "ping before-join"));

        Ignite s2 = start("s2");

        listen(s2);

        send(c1, "after-join");
        await("all got the second ping", 30_000,
            () -> has(s1, "ping after-join") && has(c1, "ping after-join") && has(s2, "ping after-join"));

        assertTrue("no ack while the trim is held: " + seen, seen.values().stream()
            .allMatch(l -> l.stream().noneMatch(s -> s.startsWith("ack"))));

        // s2 is the oldest server left: it takes over the untrimmed entries, one of them from before its join.
        Ignition.stop(s1.name(), true);

        for (Ignite n : List.of(c1, s2)) {
            await(n.name() + " got both acks", 30_000, () -> has(n, "ack before-join") && has(n, "ack after-join"));
        }

        Thread.sleep(1_000); // A second copy of an ack would come with the same trim, or soon after.

        assertEquals(List.of("ping before-join", "ping after-join", "ack before-join", "ack after-join"),
            seen.get(c1.name()));
        assertEquals(List.of("ping after-join", "ack before-join", "ack after-join"), seen.get(s2.name()));
    }

    private static void send(Ignite from, String tag) throws Exception {
        ((IgniteEx)from).context().discovery().sendCustomEvent(new Ping(tag));
    }

    private boolean has(Ignite n, String what) {
        return seen.get(n.name()).contains(what);
    }

    private void listen(Ignite n) {
        seen.put(n.name(), CustomMessageTest.pingsAndAcks(n));
    }
}
