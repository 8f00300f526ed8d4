package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import static org.junit.Assert.assertEquals;

/**
 * Soak and scale, run with {@code -Pslow}: topology churn with custom events for {@code zkion.soak.seconds}
 * (default 180), and a join storm of 16 servers. Every node that stays must see every message once, in one order.
 */
@Category(SlowTest.class)
public class ChurnSoakTest extends ZkIonTestSupport {
    @Test(timeout = 900_000) public void churnWithCustomEvents() throws Exception {
        long seconds = Long.getLong("zkion.soak.seconds", 180);
        Ignite anchor = start("anchor");
        Ignite watcher = start("watcher");
        Map<String, List<String>> seen = new ConcurrentHashMap<>();

        for (Ignite n : List.of(anchor, watcher)) {
            List<String> l = new CopyOnWriteArrayList<>();

            seen.put(n.name(), l);
            ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.Ping.class,
                (topVer, snd, msg) -> l.add(msg.tag));
        }

        Random rnd = new Random(7);
        List<Ignite> churn = new ArrayList<>();
        long end = System.currentTimeMillis() + seconds * 1000;
        int sent = 0;
        int round = 0;

        while (System.currentTimeMillis() < end) {
            round++;

            if (churn.size() < 3 || rnd.nextBoolean())
                churn.add(rnd.nextInt(4) == 0 ? startClient("churn-c" + round) : start("churn-s" + round));
            else {
                Ignite victim = churn.remove(rnd.nextInt(churn.size()));

                if (rnd.nextInt(3) == 0)
                    spiOf(victim).simulateNodeFailure();
                else
                    Ignition.stop(victim.name(), true);
            }

            for (int i = 0; i < 10; i++, sent++)
                ((IgniteEx)anchor).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("m" + sent));
        }

        int total = sent;

        await("all messages seen", 120_000, () -> seen.get("anchor").size() == total && seen.get("watcher").size() == total);
        assertEquals(total, seen.get("anchor").stream().distinct().count());
        assertEquals(seen.get("anchor"), seen.get("watcher"));

        // Data znodes of the nodes that left or failed are removed; those of the nodes still in stay.
        try (org.apache.curator.framework.CuratorFramework zkc = org.apache.curator.framework.CuratorFrameworkFactory
            .newClient(zk.getConnectString(), new org.apache.curator.retry.RetryOneTime(100))) {
            zkc.start();

            await("only members' data znodes left", 60_000, () -> {
                try {
                    java.util.Set<String> members = new java.util.HashSet<>();

                    anchor.cluster().nodes().forEach(c -> members.add(c.id().toString()));

                    List<String> data = zkc.getChildren().forPath(root + "/nodes");

                    // The watcher joined by reference, so its data znode is there: the check is not vacuous.
                    return data.contains(watcher.cluster().localNode().id().toString()) && members.containsAll(data);
                }
                catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }
    }

    @Test(timeout = 900_000) public void joinStormOfSixteenServers() throws Exception {
        startConcurrently(16, "storm");

        for (Ignite n : nodes)
            await(n.name() + " sees 16", 120_000, () -> n.cluster().nodes().size() == 16);
    }
}
