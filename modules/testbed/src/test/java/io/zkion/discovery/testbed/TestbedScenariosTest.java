package io.zkion.discovery.testbed;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The testbed's scenarios (issue 22), each on a fresh testbed: 3 ZooKeeper servers, 3 Ignite servers and a client in
 * containers, faults made by {@code docker/testbed}, keys put and read back through the thin client. Each scenario's
 * figures go to {@code benchmarks/results/testbed-<date>.md/.json}. Run by {@code mvn -B verify -Pdocker}; needs
 * root or a running engine.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class TestbedScenariosTest {
    private static final long SESSION = Testbed.SESSION_TIMEOUT_MS;

    private static final List<String> SERVERS = List.of("ignite1", "ignite2", "ignite3");

    private static Testbed bed;

    private static ScenarioReport report;

    @BeforeClass public static void engineAndImages() throws Exception {
        bed = new Testbed(Paths.get("target", "testbed-logs", "scenarios.log").toAbsolutePath());
        report = new ScenarioReport(Paths.get(System.getProperty("zkion.testbed.report", "target")));
        bed.must(900, "engine");
        bed.must(1800, "images");
        bed.run(180, "down");
    }

    @AfterClass public static void down() throws Exception {
        if (bed != null)
            bed.run(180, "down");
        if (report != null)
            report.write();
    }

    @Test public void a_bringUp() throws Exception {
        scenario("a", "bring-up: 3 ZooKeeper servers, 3 Ignite servers and 1 client healthy; status exits 0", row -> {
            assertEquals(0, bed.run(90, "status", "3").code);
            row.put("nodes", bed.alive().size());
        });
    }

    @Test public void b_killCoordinator() throws Exception {
        scenario("b", "kill -9 of the coordinator's container under load", row -> {
            Map<String, String> alive = bed.alive();
            String crd = bed.coordinatorHost();
            try (KeyLoad load = new KeyLoad("b", 1).start()) {
                Thread.sleep(5_000);
                Instant kill = Instant.now();
                bed.must(30, "kill", crd);
                long ms = failedSeenBy(others(alive, crd), alive.get(crd), kill, SESSION + 30_000);
                row.put("killed", crd).put("NODE_FAILED seen by every survivor after (ms)", ms)
                    .put("of it ZooKeeper's expiry (ms)", zkExpiry(kill));
                assertTrue("NODE_FAILED after " + ms + " ms", ms <= SESSION + 2_000);
                Thread.sleep(5_000);
                checkKeys(load, row);
            }
            assertTrue("the killed node is still in the topology", !alive.get(crd).equals(bed.alive().get(crd)));
            assertEquals(0, bed.run(90, "status", "2").code);
        });
    }

    @Test public void c_pausePastSessionTimeout() throws Exception {
        scenario("c", "a server paused past its session timeout, then resumed", row -> {
            Map<String, String> alive = bed.alive();
            String victim = nonCoordinatorServer();
            String id = alive.get(victim);
            Instant pause = Instant.now();
            bed.must(30, "pause", victim);
            long ms = failedSeenBy(others(alive, victim), id, pause, SESSION + 30_000);
            row.put("paused", victim).put("NODE_FAILED seen by every other node after (ms)", ms);
            bed.must(30, "resume", victim);
            long gone = untilGone(victim, id, 120_000);
            row.put("its old node gone from the topology, after the resume (ms)", gone);
            // It stops itself (its session expired); the restart policy brings it back as a new node.
            long back = untilBack(victim, id, 180_000);
            row.put("back as a new node after the resume (ms)", back).put("container restarts", readRestarts(victim));
        });
    }

    @Test public void d_cutFromZooKeeper() throws Exception {
        scenario("d", "cut-zk of one server: it segments, the others fail it", row -> {
            Map<String, String> alive = bed.alive();
            String victim = nonCoordinatorServer();
            Instant cut = Instant.now();
            bed.must(60, "cut-zk", victim);
            long ms = failedSeenBy(others(alive, victim), alive.get(victim), cut, SESSION + 30_000);
            row.put("cut", victim).put("NODE_FAILED seen by every other node after (ms)", ms);
            Instant seg = waitLine(victim, cut, 120_000, "SEGMENTED");
            assertNotNull(victim + " never logged its segmentation", seg);
            row.put("it logged SEGMENTED after (ms)", Duration.between(cut, seg).toMillis());
            // The cut is on the ZooKeeper servers' side: the restarted container cannot join until the heal.
            Thread.sleep(10_000);
            assertTrue(victim + " is back before the heal", !bed.alive().containsKey(victim));
            row.put("container restarts before the heal", readRestarts(victim));
            bed.must(120, "heal");
            Instant healed = Instant.now();
            assertTrue("the cluster did not get 3 servers back", untilHealthy(3, 180_000));
            row.put("3 servers again after heal (ms)", Duration.between(healed, Instant.now()).toMillis());
        });
    }

    @Test public void e_quorumOutage() throws Exception {
        scenario("e", "ZooKeeper quorum lost for 2 session timeouts under load: every node kept", row -> {
            Map<String, String> before = bed.alive();
            try (KeyLoad load = new KeyLoad("e", 1).start()) {
                Thread.sleep(3_000);
                Instant outage = Instant.now();
                bed.must(90, "zk-outage");
                Thread.sleep(2 * SESSION);
                row.put("zk2 and zk3 stopped for (s)", Duration.between(outage, Instant.now()).toSeconds());
                bed.must(120, "heal");
                assertTrue("unhealthy after the outage", untilHealthy(3, 120_000));
                // An expiry the outage caused would show a session timeout after the quorum's return.
                Thread.sleep(SESSION + 5_000);
                assertEquals("the nodes after the outage", before, bed.alive());
                assertEquals("topology events during the outage", 0, topologyEvents(outage));
                row.put("nodes kept", before.size() + " of " + before.size());
                checkKeys(load, row);
            }
        });
    }

    /**
     * A silent cut of open connections is noticed by Ignite's communication only when TCP gives up (nothing in 95 s
     * here), so the cut also closes the pair's open connections: reconnecting then times out, and Ignite reports.
     */
    @Test public void f_cutBetweenTwoServers() throws Exception {
        scenario("f", "cut --reset between two servers that both keep ZooKeeper: the resolver removes one", row -> {
            Map<String, String> alive = bed.alive();
            String crd = bed.coordinatorHost();
            List<String> pair = new ArrayList<>(SERVERS);
            pair.remove(crd);
            try (KeyLoad load = new KeyLoad("f", 1).start()) {
                Thread.sleep(5_000);
                Instant cut = Instant.now();
                bed.must(60, "cut", "--reset", pair.get(0), pair.get(1));
                row.put("cut", pair.get(0) + " and " + pair.get(1))
                    .put("the cut command took (ms)", Duration.between(cut, Instant.now()).toMillis());
                Instant verdict = waitLine(crd, cut, 180_000, "Communication failure round", "decided after");
                assertNotNull("no round decided within 180 s of the cut", verdict);
                for (Testbed.Line l : bed.logs(crd)) {
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("decided after (\\d+) ms").matcher(l.text);
                    if (!l.at.isBefore(cut) && m.find())
                        row.put("the round itself (ms)", Long.parseLong(m.group(1)));
                }
                String removed = null;
                for (long end = System.currentTimeMillis() + 30_000; removed == null
                    && System.currentTimeMillis() < end; Thread.sleep(1_000)) {
                    for (String p : pair) {
                        if (bed.firstLine(crd, cut, "Node FAILED", alive.get(p)) != null)
                            removed = removed == null ? p : removed + "," + p;
                    }
                }
                assertNotNull("the round removed neither of the pair", removed);
                assertTrue("the round removed both of the pair", !removed.contains(","));
                Instant report = bed.firstLine(pair, cut, "Communication failure with", "reported");
                row.put("removed", removed).put("cut to verdict (ms)", Duration.between(cut, verdict).toMillis());
                if (report != null)
                    row.put("first report to verdict (ms)", Duration.between(report, verdict).toMillis());
                long seen = failedSeenBy(others(alive, removed), alive.get(removed), cut, 30_000);
                row.put("NODE_FAILED seen by every survivor after the cut (ms)", seen);
                String kept = pair.get(0).equals(removed) ? pair.get(1) : pair.get(0);
                assertEquals("the other of the pair is still in", alive.get(kept), bed.alive().get(kept));
                // Heal before the removed node's container restarts it into the same cut.
                bed.must(120, "heal");
                Thread.sleep(5_000);
                checkKeys(load, row);
            }
        });
    }

    @Test public void g_rollingZooKeeperRestart() throws Exception {
        scenario("g", "rolling restart of the ZooKeeper servers under load: no topology event", row -> {
            Map<String, String> before = bed.alive();
            try (KeyLoad load = new KeyLoad("g", 1).start()) {
                Instant start = Instant.now();
                for (String zk : List.of("zk1", "zk2", "zk3"))
                    bed.must(240, "restart", zk);
                row.put("restarts took (s)", Duration.between(start, Instant.now()).toSeconds());
                // A session the last restart ended would expire a session timeout later: wait past it.
                Thread.sleep(SESSION + 5_000);
                assertEquals("topology events during the restarts", 0, topologyEvents(start));
                assertEquals(before, bed.alive());
                checkKeys(load, row);
            }
        });
    }

    @Test public void h_rollingUpgradeFromOldRelease() throws Exception {
        Path old = OldRelease.allJar();
        scenario("h", "rolling upgrade of the Ignite containers from 0.1.0 to this build under load", "./libs-0.1.0", row -> {
            try (KeyLoad load = new KeyLoad("h", 2).start()) {
                Instant start = Instant.now();
                for (String node : List.of("ignite1", "ignite2", "ignite3", "client1")) {
                    bed.must(300, "upgrade", node);
                    Thread.sleep(10_000); // rebalancing back to the new node, before the next one goes
                }
                row.put("upgrade took (s)", Duration.between(start, Instant.now()).toSeconds());
                assertTrue(untilHealthy(3, 120_000));
                String json = bed.must(90, "cli", "status", "--json");
                String release = System.getProperty("zkion.version");
                int nodes = Testbed.alive(json).size();
                int onThis = json.split(java.util.regex.Pattern.quote("\"release\":\"" + release + "\""), -1).length - 1;
                assertEquals("nodes on " + release + " after the upgrade: " + json, nodes, onThis);
                assertEquals(4, nodes);
                checkKeys(load, row);
            }
        }, old);
    }

    @Test public void i_ensembleReplaced() throws Exception {
        scenario("i", "the ensemble replaced by dynamic reconfiguration under load: no topology event", row -> {
            Map<String, String> before = bed.alive();
            try (KeyLoad load = new KeyLoad("i", 1).start()) {
                Instant start = Instant.now();
                String out = bed.must(900, "replace-zk");
                row.put("replacement took (s)", Duration.between(start, Instant.now()).toSeconds());
                String now = out.substring(out.indexOf("ensemble now:") + "ensemble now:".length());
                row.put("ensemble after", now.substring(0, now.indexOf('\n') < 0 ? now.length() : now.indexOf('\n')).trim());
                assertTrue("the ensemble is not zk4-zk6: " + now, now.contains("server.4=") && now.contains("server.5=")
                    && now.contains("server.6=") && !now.contains("server.1=") && !now.contains("server.2=")
                    && !now.contains("server.3="));
                Thread.sleep(SESSION + 5_000);
                for (String node : List.of("ignite1", "ignite2", "ignite3", "client1"))
                    assertNotNull(node + " never followed the ensemble",
                        bed.firstLine(node, start, "Connection string changed to"));
                // Discovery still works through the new servers alone: a cache create is a discovery custom message.
                load.createCache("i-after");
                assertEquals("topology events during the replacement", 0, topologyEvents(start));
                assertEquals(before, bed.alive());
                row.put("topology events", 0);
                checkKeys(load, row);
            }
        });
    }

    /** Rounds are off while a node of 0.1.0 is in (README, "Split brain"): a cut then removes nobody. */
    @Test public void j_cutWithAnOldReleaseIn() throws Exception {
        Path old = OldRelease.allJar();
        scenario("j", "0.1.0 and this build mixed, a cut between two servers of this build: no round, both stay",
            "./libs-0.1.0", row -> {
                bed.must(300, "upgrade", "ignite1");
                bed.must(300, "upgrade", "ignite2");
                Map<String, String> alive = bed.alive();
                try (KeyLoad load = new KeyLoad("j", 1).start()) {
                    Thread.sleep(5_000);
                    Instant cut = Instant.now();
                    bed.must(60, "cut", "--reset", "ignite1", "ignite2");
                    Instant why = waitLine(List.of("ignite1", "ignite2"), cut, 120_000,
                        "Not resolving the communication failure with",
                        "runs a release of ZkIon without communication failure rounds");
                    assertNotNull("no node said why it started no round within 120 s of the cut", why);
                    row.put("the call said why after the cut (ms)", Duration.between(cut, why).toMillis());
                    Thread.sleep(10_000);
                    assertEquals("a node was removed", alive, bed.alive());
                    assertEquals("topology events", 0, topologyEvents(cut));
                    row.put("nodes removed", 0);
                    bed.must(120, "heal");
                    Thread.sleep(5_000);
                    checkKeys(load, row);
                }
            }, old);
    }

    // ---- helpers

    /** A scenario body. */
    private interface Body {
        void run(ScenarioReport.Row row) throws Exception;
    }

    private static void scenario(String id, String what, Body body) throws Exception {
        scenario(id, what, null, body, null);
    }

    /** Brings up a fresh testbed (with the given plugin jar folder, if any), runs the body, always tears down. */
    private static void scenario(String id, String what, String libs, Body body, Path jar) throws Exception {
        ScenarioReport.Row row = report.row(id, what);
        long t0 = System.nanoTime();
        Testbed b = bed;
        try {
            if (libs != null)
                OldRelease.putIn(jar, Testbed.checkout().resolve("docker").resolve(libs.substring(2)));
            Testbed up = libs == null ? b : new Testbed(Paths.get("target", "testbed-logs", "scenarios.log")
                .toAbsolutePath()).with("ZKION_LIBS", libs);
            Instant s = Instant.now();
            up.must(400, "up");
            row.put("up (s)", Duration.between(s, Instant.now()).toSeconds());
            body.run(row);
            row.result = "passed";
        }
        catch (Throwable e) {
            row.result = "failed";
            row.failure = String.valueOf(e.getMessage());
            keepLogs(id);
            throw e;
        }
        finally {
            row.seconds = (System.nanoTime() - t0) / 1e9;
            b.run(180, "down");
            report.write();
        }
    }

    /** Keeps every container's output of a failed scenario under target/testbed-logs, before down removes them. */
    private static void keepLogs(String scenario) throws Exception {
        for (String svc : List.of("zk1", "zk2", "zk3", "zk4", "zk5", "zk6", "ignite1", "ignite2", "ignite3", "client1")) {
            StringBuilder out = new StringBuilder();
            for (Testbed.Line l : bed.logs(svc))
                out.append(l.at).append(' ').append(l.text).append('\n');
            if (out.length() > 0)
                java.nio.file.Files.writeString(Paths.get("target", "testbed-logs", scenario + "-" + svc + ".log"),
                    out);
        }
    }

    private static void checkKeys(KeyLoad load, ScenarioReport.Row row) throws InterruptedException {
        load.stop();
        List<Integer> lost = load.lost();
        row.put("keys acknowledged", load.acked()).put("keys lost", lost.size()).put("failed puts", load.failedPuts());
        assertTrue("acknowledged keys lost: " + lost.subList(0, Math.min(20, lost.size())), lost.isEmpty());
        assertTrue("no key was acknowledged", load.acked() > 0);
    }

    private static List<String> others(Map<String, String> alive, String except) {
        List<String> o = new ArrayList<>(alive.keySet());
        o.remove(except);
        return o;
    }

    private static String nonCoordinatorServer() throws Exception {
        String crd = bed.coordinatorHost();
        return SERVERS.stream().filter(s -> !s.equals(crd)).reduce((a, b) -> b).orElseThrow();
    }

    /** @return The time from {@code since} until every node listed logged the node's NODE_FAILED. */
    private static long failedSeenBy(List<String> nodes, String id, Instant since, long boundMs) throws Exception {
        Map<String, Instant> seen = new HashMap<>();
        for (long end = System.currentTimeMillis() + boundMs; seen.size() < nodes.size(); Thread.sleep(1_000)) {
            for (String n : nodes) {
                if (!seen.containsKey(n)) {
                    Instant at = bed.firstLine(n, since, "Node FAILED", id);
                    if (at != null)
                        seen.put(n, at);
                }
            }
            if (System.currentTimeMillis() > end)
                throw new AssertionError("NODE_FAILED of " + id + " not seen by " + nodes + " within " + boundMs
                    + " ms; seen by " + seen.keySet());
        }
        return seen.values().stream().mapToLong(t -> Duration.between(since, t).toMillis()).max().orElse(-1);
    }

    /** @return The time from the instant until a ZooKeeper server logged a session's expiry; -1 if none did. */
    private static long zkExpiry(Instant since) throws Exception {
        Instant at = bed.firstLine(List.of("zk1", "zk2", "zk3"), since, "Expiring session");
        return at == null ? -1 : Duration.between(since, at).toMillis();
    }

    private static Instant waitLine(String node, Instant since, long boundMs, String... words) throws Exception {
        return waitLine(List.of(node), since, boundMs, words);
    }

    /** @return The earliest such line of any of the nodes, polled until one has it or the bound passes. */
    private static Instant waitLine(List<String> nodes, Instant since, long boundMs, String... words) throws Exception {
        for (long end = System.currentTimeMillis() + boundMs; System.currentTimeMillis() < end; Thread.sleep(1_000)) {
            Instant at = bed.firstLine(nodes, since, words);
            if (at != null)
                return at;
        }
        return null;
    }

    private static long untilGone(String host, String id, long boundMs) throws Exception {
        long t0 = System.currentTimeMillis();
        while (id.equals(bed.alive().get(host))) {
            if (System.currentTimeMillis() - t0 > boundMs)
                throw new AssertionError(host + "'s node " + id + " still in the topology after " + boundMs + " ms");
            Thread.sleep(1_000);
        }
        return System.currentTimeMillis() - t0;
    }

    /** @return The time until the host is in the topology again under another node id. */
    private static long untilBack(String host, String oldId, long boundMs) throws Exception {
        long t0 = System.currentTimeMillis();
        for (String now = bed.alive().get(host); now == null || now.equals(oldId); now = bed.alive().get(host)) {
            if (System.currentTimeMillis() - t0 > boundMs)
                throw new AssertionError(host + " did not come back as a new node within " + boundMs + " ms");
            Thread.sleep(1_000);
        }
        return System.currentTimeMillis() - t0;
    }

    private static boolean untilHealthy(int servers, long boundMs) throws Exception {
        for (long end = System.currentTimeMillis() + boundMs; System.currentTimeMillis() < end; Thread.sleep(2_000)) {
            if (bed.run(90, "status", String.valueOf(servers)).code == 0)
                return true;
        }
        return false;
    }

    /** @return Lines of any Ignite node since the instant that say a node joined, left or failed. */
    private static int topologyEvents(Instant since) throws Exception {
        int n = 0;
        for (String node : List.of("ignite1", "ignite2", "ignite3", "client1")) {
            for (Testbed.Line l : bed.logs(node)) {
                if (!l.at.isBefore(since) && (l.text.contains("Node FAILED") || l.text.contains("Node left topology")
                    || l.text.contains("Added new node to topology")))
                    n++;
            }
        }
        return n;
    }

    private static String readRestarts(String service) throws Exception {
        Process p = new ProcessBuilder("timeout", "30", "docker", "inspect", "-f", "{{.RestartCount}}",
            bed.container(service)).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor(35, TimeUnit.SECONDS);
        return out;
    }
}
