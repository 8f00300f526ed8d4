package io.zkion.discovery;

import io.zkion.discovery.CustomMessageTest.Mutable;
import io.zkion.discovery.CustomMessageTest.MutableAck;
import io.zkion.discovery.CustomMessageTest.Ping;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.engine.NodeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.events.DiscoveryEvent;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A custom message whose send returned reaches every member before its sender's NODE_LEFT, even when the sender
 * stops right after (issue 27); of a sender that fails instead, a message reaches every member or none.
 */
public class SendThenStopTest extends ZkIonTestSupport {
    /** Per node: what it delivered, as "ping tag@topVer", "mutable@topVer", "ack@topVer", "LEFT id@topVer", "FAILED ...". */
    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    private final ControlCodec codec = new ControlCodec(StreamingZip.defaults());

    /**
     * The sender's messages wait in the coordinator's queue (a mutable one goes there, and the sender's later ones
     * follow it, to keep its order) while the coordinator is paused; the sender stops meanwhile. They are delivered
     * everywhere, before its NODE_LEFT.
     */
    @Test(timeout = 120_000) public void queuedMessagesOfAStoppingNodeComeBeforeItsLeave() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");

        listen(s1, s2, c1);

        AutoCloseable paused = spiOf(s1).engine().holdDiscoveryForTest();

        send(s2, new Mutable());
        send(s2, new Ping("p1"));
        send(s2, new Ping("p2"));

        stopWhileHeld(s2, paused, List.of("mutable", "ping p1", "ping p2"), s1, c1);
    }

    /**
     * The coordinator's own messages wait in its queue (a mutable one goes there, a ping follows it) and it stops
     * before it takes them: Ignite has stopped listening on it. Its successor logs the ping before its NODE_LEFT, where
     * it used to log the departure first and then drop it as a departed node's (the chaos run's lost message). The
     * mutable one is dropped, as with the stock SPI: only the coordinator it was sent to may process it first.
     */
    @Test(timeout = 120_000) public void aStoppingCoordinatorsQueuedMessagesComeBeforeItsLeave() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");

        listen(s1, s2, c1);

        UUID id1 = s1.cluster().localNode().id();
        CompletableFuture<Void> stop;

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
             AutoCloseable paused = spiOf(s1).engine().holdDiscoveryForTest()) {
            zkc.start();

            send(s1, new Mutable());
            send(s1, new Ping("q1"));

            stop = CompletableFuture.runAsync(() -> Ignition.stop(s1.name(), true));

            // Ignite stops listening before it stops the SPI, which writes the marker: the queue is the successor's.
            await("s1 marked itself as leaving", 30_000, () -> exists(zkc, root + "/left/" + id1));
        }

        stop.get(30, TimeUnit.SECONDS);

        for (Ignite n : List.of(s2, c1)) {
            await(n.name() + " saw s1 leave", 30_000, () -> left(n.name(), id1) > 0);
            assertDeliveredBefore(n.name(), List.of("ping q1"), left(n.name(), id1));
            assertEquals(n.name() + ": " + seen.get(n.name()), 0, count(n.name(), "mutable@"));
        }
    }

    /**
     * A log rollover's drain holds the coordinator's queue until every member acked what the log holds. A node that
     * stops with a mutable message in that queue still reads and acks while it waits, so the drain ends and its message
     * is delivered everywhere before its NODE_LEFT. It used to read nothing once stopping: the drain waited for it
     * until its 10 s wait ran out, and its mutable message was then dropped with its departure (the chaos run's lost
     * {@code c2.225.3m}).
     */
    @Test(timeout = 120_000) public void aStopDuringALogRolloversDrainHasItsQueueTaken() throws Exception {
        Coordinator.rollLogAtForTest(Long.MAX_VALUE); // No drain until the test starts one.

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            zkc.start();

            Ignite s1 = start("s1");
            Ignite s2 = start("s2");
            Ignite c1 = startClient("c1");

            listen(s1, s2, c1);

            // s2 reads nothing meanwhile: the drain the next entry starts waits for its ack.
            AutoCloseable held = spiOf(s2).engine().holdDiscoveryForTest();

            Coordinator.rollLogAtForTest(1);
            send(c1, new Ping("due"));

            await("the coordinator drains the log, its gate closed", 30_000, () -> !gateOpen(zkc));

            send(s2, new Mutable()); // To the coordinator's queue, held by the drain.
            send(s2, new Ping("after"));

            stopWhileHeld(s2, held, List.of("mutable", "ping after"), s1, c1);
        }
        finally {
            Coordinator.rollLogAtForTest(0);
        }
    }

    /**
     * The gate is closed while the coordinator delivers a mutable message to itself (its listener is held there), so
     * another node's plain pings go through the coordinator's queue; that node stops meanwhile. Every member delivers
     * its pings once the coordinator goes on, before its NODE_LEFT.
     */
    @Test(timeout = 120_000) public void sendsWhileTheGateIsClosedComeBeforeTheLeave() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");
        java.util.concurrent.CountDownLatch inListener = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

        listen(s1, s2, c1);

        ((IgniteEx)s1).context().discovery().setCustomEventListener(Mutable.class, (topVer, snd, msg) -> {
            inListener.countDown();

            try {
                release.await(); // The coordinator holds the gate closed meanwhile.
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        UUID id2 = s2.cluster().localNode().id();

        send(c1, new Mutable());
        assertTrue("the coordinator is in its listener", inListener.await(30, TimeUnit.SECONDS));

        send(s2, new Ping("g1"));
        send(s2, new Ping("g2"));

        CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> Ignition.stop(s2.name(), true));

        Thread.sleep(500); // The stop is under way, its node waiting for the coordinator.
        release.countDown();
        stop.get(30, TimeUnit.SECONDS);

        for (Ignite n : List.of(s1, c1)) {
            await(n.name() + " saw s2 leave", 30_000, () -> left(n.name(), id2) > 0);
            assertDeliveredBefore(n.name(), List.of("ping g1", "ping g2"), left(n.name(), id2));
        }
    }

    /**
     * Many nodes in turn send a mutable message and pings, some while the gate is closed (a node joins meanwhile),
     * and stop as soon as the sends return: every member delivers every message before the sender's NODE_LEFT.
     */
    @Test(timeout = 300_000) public void sendThenStopAtOnceManyTimes() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1");

        listen(s1, c1);

        List<String> senders = new ArrayList<>();

        for (int round = 0; round < 8; round++) {
            Ignite n = start("n" + round);
            String tag = n.name() + "-";

            senders.add(n.name());

            // A joiner has the coordinator close the gate for a moment: sends meanwhile go through its queue.
            CompletableFuture<Ignite> joiner = CompletableFuture.supplyAsync(() -> start("j" + n.name()));

            send(n, new Ping(tag + "a"));
            send(n, new Mutable());
            send(n, new Ping(tag + "b"));
            send(n, new Ping(tag + "c"));

            UUID id = n.cluster().localNode().id();

            Ignition.stop(n.name(), true);
            Ignition.stop(joiner.get(60, TimeUnit.SECONDS).name(), true);

            for (Ignite m : List.of(s1, c1)) {
                await(m.name() + " saw " + n.name() + " leave", 30_000, () -> left(m.name(), id) > 0);
                assertDeliveredBefore(m.name(), List.of("ping " + tag + "a", "ping " + tag + "b", "ping " + tag + "c"),
                    left(m.name(), id));
            }
        }

        // One mutable message per sender, each delivered on the coordinator and by everyone (its original or its ack).
        for (Ignite m : List.of(s1, c1))
            assertEquals(m.name() + ": " + seen.get(m.name()), senders.size(), count(m.name(), "mutable@"));
    }

    /**
     * A sender that fails (its session ends, as with kill -9) with messages in the coordinator's queue: no member
     * delivers them, and every member sees it fail. A message it appended to the log itself before is delivered by
     * every member, before its NODE_FAILED.
     */
    @Test(timeout = 120_000) public void aFailedSendersMessagesReachEveryoneOrNoOne() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");

        listen(s1, s2, c1);

        send(s2, new Ping("logged"));

        for (Ignite n : List.of(s1, c1))
            await(n.name() + " delivered the logged ping", 30_000, () -> seen.get(n.name()).stream()
                .anyMatch(s -> s.startsWith("ping logged@")));

        UUID id2 = s2.cluster().localNode().id();

        try (AutoCloseable paused = spiOf(s1).engine().holdDiscoveryForTest()) {
            send(s2, new Mutable());
            send(s2, new Ping("queued"));

            spiOf(s2).simulateNodeFailure();
        }

        for (Ignite n : List.of(s1, c1)) {
            await(n.name() + " saw s2 fail", 30_000, () -> failed(n.name(), id2) > 0);
            assertDeliveredBefore(n.name(), List.of("ping logged"), failed(n.name(), id2));
            assertEquals(n.name() + ": " + seen.get(n.name()), 0, count(n.name(), "ping queued@") + count(n.name(), "mutable@"));
        }
    }

    /**
     * Stops {@code n}, releases {@code held} (a discovery thread held) once {@code n} waits for the coordinator to take
     * its queue, and checks that every one of {@code others} delivered {@code what} before n's NODE_LEFT.
     */
    private void stopWhileHeld(Ignite n, AutoCloseable held, List<String> what, Ignite... others) throws Exception {
        UUID id = n.cluster().localNode().id();
        NodeEngine engine = spiOf(n).engine();
        CompletableFuture<Void> stop;

        try (held) {
            stop = CompletableFuture.runAsync(() -> Ignition.stop(n.name(), true));

            await(n.name() + " waits for the coordinator to take its queue", 30_000,
                () -> engine.state() == NodeEngine.State.LEAVING);
        }

        stop.get(30, TimeUnit.SECONDS);

        for (Ignite o : others) {
            await(o.name() + " saw " + n.name() + " leave", 30_000, () -> left(o.name(), id) > 0);
            assertDeliveredBefore(o.name(), what, left(o.name(), id));
        }
    }

    private static void send(Ignite n, CustomMessageTest.TestMessage m) throws Exception {
        ((IgniteEx)n).context().discovery().sendCustomEvent(m);
    }

    private void listen(Ignite... all) {
        for (Ignite n : all) {
            List<String> l = new CopyOnWriteArrayList<>();
            GridDiscoveryManager disco = ((IgniteEx)n).context().discovery();

            seen.put(n.name(), l);

            disco.setCustomEventListener(Ping.class, (topVer, snd, msg) -> l.add("ping " + msg.tag + '@'
                + topVer.topologyVersion()));
            disco.setCustomEventListener(Mutable.class, (topVer, snd, msg) -> l.add("mutable@" + topVer.topologyVersion()));
            disco.setCustomEventListener(MutableAck.class, (topVer, snd, msg) -> l.add("ack@" + topVer.topologyVersion()));

            n.events().localListen(e -> {
                DiscoveryEvent d = (DiscoveryEvent)e;

                l.add((d.type() == EventType.EVT_NODE_LEFT ? "LEFT " : "FAILED ") + d.eventNode().id() + '@'
                    + d.topologyVersion());

                return true;
            }, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED);
        }
    }

    /** @return The topology version of the NODE_LEFT of {@code id} on {@code node}; 0 if none yet. */
    private long left(String node, UUID id) {
        return topVerOf(node, "LEFT " + id + '@');
    }

    private long failed(String node, UUID id) {
        return topVerOf(node, "FAILED " + id + '@');
    }

    private long topVerOf(String node, String prefix) {
        for (String s : seen.get(node)) {
            if (s.startsWith(prefix))
                return Long.parseLong(s.substring(prefix.length()));
        }

        return 0;
    }

    private boolean gateOpen(CuratorFramework c) {
        try {
            return codec.decodeGate(c.getData().forPath(root + "/gate"), "gate").open;
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean exists(CuratorFramework c, String path) {
        try {
            return c.checkExists().forPath(path) != null;
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long count(String node, String prefix) {
        return seen.get(node).stream().filter(s -> s.startsWith(prefix)).count();
    }

    /** Each of {@code what} is delivered on {@code node} once, at a topology version before {@code topVer}. */
    private void assertDeliveredBefore(String node, List<String> what, long topVer) throws Exception {
        for (String w : what) {
            await(node + " delivered " + w, 30_000, () -> count(node, w + '@') > 0);

            List<String> found = new ArrayList<>();

            for (String s : seen.get(node)) {
                if (s.startsWith(w + '@'))
                    found.add(s);
            }

            assertEquals(node + ": " + seen.get(node), 1, found.size());
            assertTrue(node + " delivered " + found + " before the departure at topVer " + topVer,
                Long.parseLong(found.get(0).substring(w.length() + 1)) < topVer);
        }
    }
}
