package io.zkion.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.ignite.Ignite;
import org.apache.ignite.events.EventType;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import static org.junit.Assert.assertEquals;

/**
 * Run with {@code -Pslow}: a client's session expires, round after round, each round in a fresh cluster of two
 * servers and the client ({@code zkion.rejoin.rounds}, default 300). Every rejoin must end within 20 s; a rejoin
 * takes under a second, and one that lost Curator's connection state took 36 s and more (docs/tests.md, "Flakes").
 * This loop caught that in its 77th round, with the thread dump that showed its cause.
 */
@Category(SlowTest.class)
public class ClientRejoinSoakTest extends ZkIonTestSupport {
    @Test(timeout = 3_600_000) public void everyRejoinEnds() throws Exception {
        int rounds = Integer.getInteger("zkion.rejoin.rounds", 300);
        List<Long> millis = new ArrayList<>();

        for (int r = 0; r < rounds; r++) {
            if (r > 0) {
                stopAll();
                startZk();
            }

            start("s1");
            start("s2");

            Ignite c = startClient("c1");
            List<Integer> events = recordReconnects(c);

            c.getOrCreateCache("r").put(1, 1);

            long t0 = System.nanoTime();

            spiOf(c).engine().expireSessionForTest();
            await("the client's rejoin in round " + r, 20_000, () -> events.size() >= 2);
            millis.add((System.nanoTime() - t0) / 1_000_000);

            assertEquals(List.of(EventType.EVT_CLIENT_NODE_DISCONNECTED, EventType.EVT_CLIENT_NODE_RECONNECTED),
                events);
        }

        Collections.sort(millis);
        System.out.println("Rejoins: " + rounds + ", ms p50 " + millis.get(rounds / 2) + ", p99 "
            + millis.get(rounds * 99 / 100) + ", max " + millis.get(rounds - 1));
    }
}
