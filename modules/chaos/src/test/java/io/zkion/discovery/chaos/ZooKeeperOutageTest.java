package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.zkion.discovery.SlowTest;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * ZooKeeper outages under a running cluster: four servers and a client, each in its own JVM, on a 3-process
 * ensemble, the client putting and getting (one backup, FULL_SYNC). The ensemble loses its quorum, or is restarted
 * whole, and the cluster keeps every node; a node cut off from ZooKeeper alone stops before the others fail it; a
 * node killed while ZooKeeper is out is failed once it is back. Each test prints its figures.
 */
public class ZooKeeperOutageTest {
    /** The run's session timeout: what every bound here is measured in. */
    private static final long T = 6_000;

    /** Quorum lost for three session timeouts, under load: nobody leaves, nothing is lost, meanwhile a cache is made. */
    @Test(timeout = 600_000) public void quorumLossFreezesTheTopology() throws Exception {
        freezesThrough("quorum-loss", new int[] {1, 2}, 3 * T, "without quorum");
    }

    /** The whole ensemble killed and started again with its data: as a quorum loss. With -Pslow (CI's budget). */
    @Category(SlowTest.class)
    @Test(timeout = 600_000) public void wholeEnsembleRestartFreezesTheTopology() throws Exception {
        freezesThrough("ensemble-restart", new int[] {0, 1, 2}, 2 * T, "down");
    }

    /** The ZooKeeper servers {@code down} killed for {@code ms} and started again: every node holds its place. */
    private static void freezesThrough(String name, int[] down, long ms, String what) throws Exception {
        try (RollingRestart run = new RollingRestart("outage", name)) {
            run.start(Release.current(run.settings), Release.current(run.settings));

            long topVer = topVer(run);
            long from = System.currentTimeMillis();

            for (int i : down)
                run.zk().kill(i);

            heldThrough(run, ms);

            for (int i : down)
                run.zk().start(i);

            long back = awaitQuorum(run);

            assertFrozenOnly(run, topVer, from, back);
            System.out.println(name + ": ZooKeeper " + what + " for " + (back - from) + " ms; "
                + figures(run, from, back));
        }
    }

    /** A server killed while the quorum is gone: NODE_FAILED everywhere within a session timeout and 2 s of its return. */
    @Test(timeout = 600_000) public void nodeKilledDuringTheOutageFailsWhenZooKeeperIsBack() throws Exception {
        try (RollingRestart run = new RollingRestart("outage", "killed-meanwhile")) {
            run.start(Release.current(run.settings), Release.current(run.settings));

            NodeProcess victim = run.cluster().current("s3");
            String victimId = victim.status().id;

            run.zk().kill(1);
            run.zk().kill(2);
            Thread.sleep(T);
            run.cluster().expectDown("s3");
            victim.kill9();
            Thread.sleep(T);
            run.zk().start(1);
            run.zk().start(2);

            long back = awaitQuorum(run);
            Map<String, Long> failedAt = new TreeMap<>();

            for (NodeProcess n : run.cluster().running()) {
                if (n == victim)
                    continue;

                NodeHistory.Line l = awaitEvent(n, "NODE_FAILED", victimId, 3 * T);

                assertNotNull(n.key() + " never saw " + victimId + " fail; see " + run.settings.runDir, l);
                failedAt.put(n.key(), l.time - back);
                assertTrue(n.key() + " saw the killed node fail " + (l.time - back) + " ms after the quorum returned",
                    l.time - back <= T + 2_000);
            }

            run.settle("the cluster did not come back whole after the killed server's restart");
            run.verify();
            run.checkRunningHistories();
            System.out.println("killed-meanwhile: NODE_FAILED after the quorum returned, ms: " + failedAt);
        }
    }

    /**
     * One server cut off from a healthy ensemble by a silent proxy: it stops (segmented) before the others fail it,
     * no acknowledged write is lost, and it comes back as a new node.
     */
    @Test(timeout = 600_000) public void nodeCutOffAloneStopsBeforeTheOthersFailIt() throws Exception {
        try (RollingRestart run = new RollingRestart("outage", "cut-off-alone");
             ZkProxy proxy = new ZkProxy(run.zk().clientPorts())) {
            run.cluster().connectsVia("s4", proxy.connectString());
            run.start(Release.current(run.settings), Release.current(run.settings));

            NodeProcess cut = run.cluster().current("s4");
            String cutId = cut.status().id;

            run.cluster().expectDown("s4");

            long from = System.currentTimeMillis();

            proxy.cut();

            long[] times = segmentedThenFailed(run, cut, cutId);
            long segAt = times[0];
            long failed = times[1];

            // With a margin: a node that stops just before the others fail it may still have served in between.
            assertTrue("s4 stopped serving at +" + (segAt - from) + " ms, less than 500 ms before the others failed it"
                + " at +" + (failed - from) + " ms", segAt + 500 <= failed);
            assertTrue("the others failed s4 at +" + (failed - from) + " ms, past the session timeout and 3 s",
                failed - from <= T + 3_000);

            proxy.mend();
            run.settle("s4 did not come back as a new node");
            run.verify();
            run.checkRunningHistories();
            System.out.println("cut-off-alone: s4 segmented at +" + (segAt - from) + " ms, failed by the others"
                + " at +" + (failed - from) + " ms after the cut; " + figures(run, from, failed));
        }
    }

    /**
     * One client cut off from a healthy ensemble: it cannot tell that from an outage, so it holds its place; the
     * servers fail it once its session expires, and when it reaches ZooKeeper again it rejoins under a new id. Its
     * process never stops, and no acknowledged write is lost.
     */
    @Test(timeout = 600_000) public void clientCutOffAloneRejoinsAsANewNode() throws Exception {
        try (RollingRestart run = new RollingRestart("outage", "client-cut-off");
             ZkProxy proxy = new ZkProxy(run.zk().clientPorts())) {
            run.cluster().connectsVia("c1", proxy.connectString());
            run.start(Release.current(run.settings), Release.current(run.settings));

            NodeProcess client = run.cluster().current("c1");
            String oldId = client.status().id;
            long from = System.currentTimeMillis();

            proxy.cut();

            long failed = Long.MAX_VALUE;

            for (NodeProcess n : run.cluster().running()) {
                if (n != client) {
                    NodeHistory.Line l = awaitEvent(n, "NODE_FAILED", oldId, 3 * T);

                    assertNotNull(n.key() + " never saw the cut-off client fail", l);
                    failed = Math.min(failed, l.time);
                }
            }

            assertTrue("the client's process stayed up", client.alive());

            proxy.mend();
            run.settle("c1 did not come back under a new id");

            assertTrue("the same process, a new id", client.alive() && !oldId.equals(client.status().id));
            run.verify();
            run.checkRunningHistories();
            System.out.println("client-cut-off: failed by the servers at +" + (failed - from) + " ms after the cut, back"
                + " under a new id; " + figures(run, from, failed));
        }
    }

    /**
     * A quorum outage that every server rides out frozen, after which one server stays cut off (its proxy silent)
     * while the others reconnect. The tallier's verdict on its next report says one is back, and it stops within half
     * a session timeout, before the others fail it.
     */
    @Category(SlowTest.class) // With -Pslow: CI's budget.
    @Test(timeout = 600_000) public void frozenNodeLeftCutOffStopsOnceThePeersAreBack() throws Exception {
        try (RollingRestart run = new RollingRestart("outage", "left-cut-off");
             ZkProxy proxy = new ZkProxy(run.zk().clientPorts())) {
            run.cluster().connectsVia("s4", proxy.connectString());
            run.start(Release.current(run.settings), Release.current(run.settings));

            NodeProcess cut = run.cluster().current("s4");
            String cutId = cut.status().id;

            run.zk().kill(1);
            run.zk().kill(2);
            Thread.sleep(T);

            cut.command("outage o1");
            assertEquals("s4 while ZooKeeper is out", "FROZEN", cut.awaitAnswer("OUTAGE", "o1", 10_000).field("state"));

            run.cluster().expectDown("s4");
            proxy.cut();
            run.zk().start(1);
            run.zk().start(2);

            long back = awaitQuorum(run);

            long[] times = segmentedThenFailed(run, cut, cutId);
            long segAt = times[0];
            long failed = times[1];

            assertTrue("s4 stopped serving at +" + (segAt - back) + " ms after the quorum returned, after the"
                + " others failed it at +" + (failed - back) + " ms", segAt < failed);
            assertTrue("s4 stopped at +" + (segAt - back) + " ms, past half a session timeout and 2 s",
                segAt - back <= T / 2 + 2_000);

            proxy.mend();
            run.settle("s4 did not come back as a new node");
            run.verify();
            run.checkRunningHistories();
            System.out.println("left-cut-off: s4 segmented at +" + (segAt - back) + " ms after the quorum"
                + " returned, failed by the others at +" + (failed - back) + " ms; " + figures(run, back, failed));
        }
    }

    /**
     * Waits for {@code cut} (s4) to exit segmented and for every other node to see it fail.
     *
     * @return When it logged its segmentation, and when the first other node saw it fail.
     */
    private static long[] segmentedThenFailed(RollingRestart run, NodeProcess cut, String cutId) throws Exception {
        assertTrue("s4 did not stop within three session timeouts", cut.awaitExit(3 * T));
        assertEquals("s4's exit: segmented", ChaosNode.EXIT_SEGMENTED, cut.exitCode());

        NodeHistory.Line seg = line(NodeHistory.read(cut.logFile()).lines, "SEGMENTED", null);
        long failed = Long.MAX_VALUE;

        assertNotNull("s4 logged no segmentation", seg);

        for (NodeProcess n : run.cluster().running()) {
            if (n != cut) {
                NodeHistory.Line l = awaitEvent(n, "NODE_FAILED", cutId, 3 * T);

                assertNotNull(n.key() + " never saw s4 fail", l);
                failed = Math.min(failed, l.time);
            }
        }

        return new long[] {seg.time, failed};
    }

    /**
     * The outage's load: messages and a cache create sent while ZooKeeper is out wait for it, and each node says
     * (through the SPI's own state) that it holds its place.
     */
    private static void heldThrough(RollingRestart run, long ms) throws Exception {
        Thread.sleep(Math.min(ms, T));

        NodeProcess s2 = run.cluster().current("s2");

        s2.command("create-cache during-outage");
        run.createdCache("during-outage");

        for (NodeProcess n : run.cluster().running())
            n.command("send 2");

        Thread.sleep(ms - Math.min(ms, T) - 2_000);

        for (NodeProcess n : run.cluster().running()) {
            n.command("outage o1");

            NodeHistory.Line l = n.awaitAnswer("OUTAGE", "o1", 10_000);

            assertNotNull(n.key() + " did not report its outage state", l);
            assertEquals(n.key() + " while ZooKeeper is out", "FROZEN", l.field("state"));
        }
    }

    /** Nobody left, failed, was segmented or disconnected; the topology version did not move; nothing was lost. */
    private static void assertFrozenOnly(RollingRestart run, long topVer, long from, long back) throws Exception {
        run.settle("the cluster did not settle after ZooKeeper came back");

        List<String> bad = new ArrayList<>();

        for (NodeHistory h : run.histories()) {
            for (NodeHistory.Line l : h.lines) {
                boolean departure = l.kind.equals("EVT") && !"NODE_JOINED".equals(l.fields[1]);

                if (departure || l.kind.equals("SEGMENTED") || l.kind.equals("DISCONNECTED") || l.kind.equals("STOPPED"))
                    bad.add(h.key + ": " + l.kind + ' ' + String.join(" ", l.fields));
            }
        }

        assertTrue("a node left, failed or stopped: " + bad, bad.isEmpty());
        assertEquals("incarnations: nobody restarted", 5, run.cluster().everyIncarnation().size());
        assertEquals("topology version after the outage", topVer, topVer(run));
        run.checkCaches();
        run.verify();
        run.checkRunningHistories();
    }

    private static String figures(RollingRestart run, long from, long to) throws Exception {
        long puts = 0;
        long putsMeanwhile = 0;
        long failedPuts = 0;

        for (NodeHistory h : run.histories()) {
            for (NodeHistory.Line l : h.lines) {
                if (l.kind.equals("PUT")) {
                    puts++;
                    putsMeanwhile += l.time >= from && l.time <= to ? 1 : 0;
                }

                failedPuts += l.kind.equals("PUTFAIL") ? 1 : 0;
            }
        }

        return "nodes kept " + run.cluster().running().size() + ", acknowledged puts " + puts + " (" + putsMeanwhile
            + " while ZooKeeper was out), failed puts " + failedPuts + ", 0 lost (read back by the client)";
    }

    private static long topVer(RollingRestart run) {
        long v = -1;

        for (NodeProcess n : run.cluster().running()) {
            NodeStatus s = n.status();

            assertNotNull(n.key() + " has no status", s);
            assertTrue("nodes disagree on the topology version", v < 0 || v == s.topVer);
            v = s.topVer;
        }

        return v;
    }

    /** @return When a majority of the ensemble serves again. */
    private static long awaitQuorum(RollingRestart run) throws Exception {
        long end = System.currentTimeMillis() + 120_000;

        while (System.currentTimeMillis() < end) {
            int serving = 0;

            for (int i = 0; i < ZkEnsemble.SIZE; i++)
                serving += run.zk().serving(i) ? 1 : 0;

            if (serving > ZkEnsemble.SIZE / 2)
                return System.currentTimeMillis();

            Thread.sleep(100);
        }

        throw new AssertionError("the ensemble did not get its quorum back within 2 minutes");
    }

    private static NodeHistory.Line awaitEvent(NodeProcess n, String event, String nodeId, long ms) throws Exception {
        long end = System.currentTimeMillis() + ms;

        do {
            NodeHistory.Line l = line(NodeHistory.read(n.logFile()).lines, "EVT", event + ' ' + nodeId);

            if (l != null)
                return l;

            Thread.sleep(100);
        }
        while (System.currentTimeMillis() < end);

        return null;
    }

    /** @return The first line of {@code kind} whose fields after the first start with {@code rest}, or any if null. */
    private static NodeHistory.Line line(List<NodeHistory.Line> lines, String kind, String rest) {
        for (NodeHistory.Line l : lines) {
            if (!l.kind.equals(kind))
                continue;

            String tail = String.join(" ", java.util.Arrays.asList(l.fields).subList(Math.min(1, l.fields.length),
                l.fields.length));

            if (rest == null || tail.startsWith(rest))
                return l;
        }

        return null;
    }
}
