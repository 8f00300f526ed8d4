package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The coordinator dies while custom events flow; the log is trimmed; a stopped cluster leaves nothing. */
public class FailoverAndCleanupTest extends ZkIonTestSupport {
    @Test(timeout = 240_000) public void coordinatorDiesWhileCustomEventsFlow() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite c = startClient("c1");
        Map<String, List<String>> seen = new ConcurrentHashMap<>();

        for (Ignite n : List.of(s2, s3, c)) {
            List<String> l = new CopyOnWriteArrayList<>();

            seen.put(n.name(), l);
            ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.Ping.class,
                (topVer, snd, msg) -> l.add(msg.tag));
        }

        Thread sender = new Thread(() -> {
            try {
                for (int i = 0; i < 100; i++)
                    ((IgniteEx)c).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        });

        sender.start();

        // Kill the coordinator while the client's messages are being logged.
        await("some messages logged", 30_000, () -> seen.get("s2").size() >= 10);
        spiOf(s1).simulateNodeFailure();
        sender.join();

        for (Ignite n : List.of(s2, s3, c))
            await(n.name() + " has all 100", 60_000, () -> seen.get(n.name()).size() >= 100);

        List<String> ref = seen.get("s2");

        assertEquals("no message lost or duplicated", 100, ref.stream().distinct().count());
        assertEquals(100, ref.size());
        assertEquals("same order on s3", ref, seen.get("s3"));
        assertEquals("same order on the client", ref, seen.get("c1"));

        await("s1 segmented", 30_000, () -> Ignition.state(s1.name()) != IgniteState.STARTED);
    }

    @Test(timeout = 180_000) public void logIsTrimmedAndAStoppedClusterLeavesNothing() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c = startClient("c1");

        for (int i = 0; i < 50; i++)
            ((IgniteEx)c).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("t" + i));

        Ignition.stop(s2.name(), true);

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            // Every node acks; the coordinator trims what all acked, with the side data (left/, joined/, custom/).
            await("log trimmed", 30_000, () -> count(zkc, "/log") <= 2 && count(zkc, "/custom") == 0
                && count(zkc, "/left") == 0 && count(zkc, "/joined") == 0 && count(zkc, "/join") == 0);

            Ignition.stop(c.name(), true);
            Ignition.stop(s1.name(), true);

            List<String> left = new ArrayList<>();

            for (String child : zkc.getChildren().forPath(root)) {
                if (!zkc.getChildren().forPath(root + "/" + child).isEmpty() || child.equals("state"))
                    left.add(child);
            }

            assertTrue("Left behind: " + left, left.isEmpty());
            assertFalse(zkc.checkExists().forPath(root + "/state") != null);
        }
    }

    private int count(CuratorFramework c, String dir) {
        try {
            return c.getChildren().forPath(root + dir).size();
        }
        catch (Exception e) {
            return -1;
        }
    }
}
