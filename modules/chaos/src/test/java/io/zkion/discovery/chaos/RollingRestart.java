package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Four servers and a client, each in its own JVM, on a 3-process ZooKeeper ensemble, restarted one server at a time
 * into another release while the client puts and gets (one backup, FULL_SYNC) and every node sends custom messages;
 * before each restart a node of each release creates a cache. After each step: the cluster settles whole, every node
 * knows every cache, the client reads back every acknowledged write, and the nodes' histories agree. At the end the
 * same over the whole run, with its figures.
 */
final class RollingRestart implements AutoCloseable {
    static final int SERVERS = 4;
    private static final String CLIENT = "c1";
    private static final long SETTLE_MS = 180_000;

    final RunSettings settings;
    private final ZkEnsemble zk;
    private final Cluster cluster;
    /** Hosts of their own for every node, or null: all on loopback. */
    private final NetLab lab;
    /** Caches created so far, in order. */
    private final Set<String> caches = new LinkedHashSet<>();
    private int seq;
    private long keysVerified;
    /** Releases whose graceful stop may lose a send that returned just before it (0.1.0; see lossyStops). */
    private final Set<Release> lossyStops = new HashSet<>();
    /** The sends lost so, as the last check of the histories found them. */
    private List<String> lostByOlderStops = List.of();

    RollingRestart(String name) throws Exception {
        this("mixed-release", name);
    }

    /** A cluster whose run directory is {@code target/<group>/<name>-<time>}. */
    RollingRestart(String group, String name) throws Exception {
        this(group, name, false);
    }

    /**
     * The same; with {@code ownHosts}, each node runs on a host of its own ({@link NetLab}: needs root), and reaches
     * ZooKeeper over the lab's bridge.
     */
    RollingRestart(String group, String name, boolean ownHosts) throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmmss"));
        Path dir = Paths.get("target", group, name + '-' + stamp).toAbsolutePath();
        Files.createDirectories(dir);
        settings = new RunSettings(dir, dir, SERVERS, 1);
        lab = ownHosts ? new NetLab(settings.nodeNames()) : null;
        settings.lab = lab;
        zk = new ZkEnsemble(dir, settings.classPath, 192, ownHosts ? NetLab.HOST : "127.0.0.1");
        settings.zkConnect = zk.connectString();

        try {
            zk.startAll();
        }
        catch (Exception e) {
            zk.close();

            if (lab != null)
                lab.close();

            throw e;
        }

        cluster = new Cluster(settings, zk);
    }

    /** @return The hosts of the nodes; fails when they share loopback. */
    NetLab lab() {
        assertNotNull("this run's nodes have no hosts of their own", lab);

        return lab;
    }

    /** Starts the servers running {@code servers} and the client running {@code client}, and waits until settled. */
    void start(Release servers, Release client) throws Exception {
        for (int i = 1; i <= SERVERS; i++)
            cluster.runs("s" + i, servers);

        cluster.runs(CLIENT, client);
        cluster.startAll();
        cluster.startClients();
        settle("the cluster did not form");

        for (NodeProcess n : cluster.running())
            assertRuns(n);
    }

    /**
     * Stops every node, then starts them all again running {@code servers} and {@code client}: a whole restart. The
     * caches are in memory, so their data goes with it: the histories so far are checked, then set aside.
     */
    void restartWhole(Release servers, Release client) throws Exception {
        Set<String> stopped = cluster.stopAll();

        assertEquals("nodes that stopped cleanly; see " + settings.runDir, SERVERS + 1, stopped.size());
        checkHistories(stopped, Long.MAX_VALUE);

        Path before = Files.createDirectories(settings.runDir.resolve("before-whole-restart"));

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(settings.runDir, "*.log")) {
            for (Path f : logs)
                Files.move(f, before.resolve(f.getFileName()));
        }

        for (NodeProcess n : cluster.running()) {
            cluster.expectDown(n.name);
            cluster.runs(n.name, n.client ? client : servers);
        }

        cluster.restartDead();
        settle("the cluster did not form again after a whole restart");

        for (NodeProcess n : cluster.running())
            assertRuns(n);
    }

    /**
     * Starts a server named {@code name} running {@code release} beside the cluster, expecting its join refused.
     * @return The reason its start failed with, as its log has it (spaces as underscores).
     */
    String refusedJoin(String name, Release release) throws Exception {
        NodeProcess n = NodeProcess.start(name, false, 1000, settings, release);

        assertTrue(name + " running " + release + " did not end within 2 minutes", n.awaitExit(120_000));
        assertEquals(name + "'s exit code: a failed start", ChaosNode.EXIT_OTHER, n.exitCode());

        for (NodeHistory.Line l : NodeHistory.read(n.logFile()).lines) {
            if (l.kind.equals("STARTFAIL"))
                return String.join(" ", l.fields);
        }

        throw new AssertionError(name + " ended without a failed start; see " + n.logFile());
    }

    /** After an outsider's visit: the cluster is still whole, every write is there, the histories agree. */
    void checkUnharmed() throws Exception {
        settle("the cluster did not stay whole");
        verify();
        checkRunningHistories();
    }

    /** @return The servers in the order of a rolling restart: the coordinator last, so that it hands over once. */
    List<String> restartOrder() {
        return restartOrder(null);
    }

    /** @return The servers running {@code r} (any, if null), the coordinator last if it is one of them. */
    List<String> restartOrder(Release r) {
        String crd = cluster.coordinator().name;
        List<String> order = new ArrayList<>();

        for (int i = 1; i <= SERVERS; i++) {
            if (!("s" + i).equals(crd) && (r == null || releaseOf("s" + i) == r))
                order.add("s" + i);
        }

        if (r == null || releaseOf(crd) == r)
            order.add(crd);

        return order;
    }

    /**
     * Traffic, then kill -9 of the coordinator while its custom messages may be in flight; it comes back running
     * {@code into}, as an operator starts a crashed server on the jar of the upgrade under way; every check as after a
     * step. @return The server killed.
     */
    String killCoordinator(Release into) throws Exception {
        // Its caches created first: a create the kill cuts short is Ignite's to retry, not a check of discovery's.
        traffic();
        checkCaches();

        NodeProcess crd = cluster.coordinator();

        cluster.runs(crd.name, into);
        cluster.expectDown(crd.name);
        crd.kill9();
        settle("the cluster did not settle after its coordinator " + crd.key() + " was killed");
        assertRuns(cluster.current(crd.name));
        checkCaches();
        verify();
        checkRunningHistories();

        return crd.name;
    }

    ZkEnsemble zk() {
        return zk;
    }

    Cluster cluster() {
        return cluster;
    }

    /** Remembers a cache created by hand, for the checks that every node knows it. */
    void createdCache(String name) {
        caches.add(name);
    }

    /**
     * Nodes of {@code r} do not wait at a graceful stop for the coordinator to take what they queued for it (0.1.0,
     * fixed by ef29b80): a mutable message sent just before may then reach nobody, and the check lists it instead.
     */
    void lossyStops(Release r) {
        lossyStops.add(r);
    }

    /** @return The name of the server that coordinates now. */
    String coordinator() {
        return cluster.coordinator().name;
    }

    /** @return The release node {@code name} runs now. */
    Release releaseOf(String name) {
        return cluster.current(name).release;
    }

    /** Traffic from both releases, then {@code name} stopped gracefully and started running {@code release}. */
    void step(String name, Release release) throws Exception {
        traffic();

        assertTrue(name + " did not stop cleanly; see " + settings.runDir, cluster.replace(name, release));
        settle("the cluster did not settle after " + name + " restarted running " + release);
        assertRuns(cluster.current(name));
        checkCaches();
        verify();
        checkRunningHistories();
    }

    /** Waits until the cluster writes {@code format}, as both {@code gate} and {@code state} name it. */
    void assertWriteFormat(String format, String when) throws Exception {
        long end = System.currentTimeMillis() + 30_000;
        String now;

        while (!(now = ZnodeCheck.writeFormat(settings.zkConnect, settings.root)).equals(format)) {
            if (System.currentTimeMillis() > end)
                fail(when + ": the cluster writes " + now + ", expected " + format);

            Thread.sleep(250);
        }
    }

    /** The end of the run: writes stop, a last read-back, every node stops, the whole history is checked. */
    Tally finish() throws Exception {
        traffic();
        checkCaches();
        cluster.current(CLIENT).command("stop-writes");
        Thread.sleep(3_000);
        verify();

        Set<String> stopped = cluster.stopAll();

        assertEquals("nodes that stopped cleanly at the end; see " + settings.runDir, SERVERS + 1, stopped.size());
        checkHistories(stopped, Long.MAX_VALUE);

        return new Tally(histories(), keysVerified, caches.size(), lostByOlderStops);
    }

    /** Every node sends 3 custom messages, and a server of each release creates a cache. */
    void traffic() {
        Set<String> creators = new HashSet<>();

        for (NodeProcess n : cluster.running()) {
            n.command("send 3");

            if (!n.client && creators.add(n.release.name)) {
                String cache = "cache-" + (++seq) + '-' + n.release.name;

                n.command("create-cache " + cache);
                caches.add(cache);
            }
        }
    }

    void settle(String what) throws Exception {
        if (!cluster.awaitSettled(SETTLE_MS, () -> true))
            fail(what + " within " + SETTLE_MS + " ms; see " + settings.runDir);

        assertTrue("nodes that stopped by themselves: " + cluster.unplannedExits, cluster.unplannedExits.isEmpty());
    }

    /** The node's SPI class came from its release's build. */
    private void assertRuns(NodeProcess n) throws IOException {
        for (NodeHistory.Line l : NodeHistory.read(n.logFile()).lines) {
            if (l.kind.equals("LAUNCH")) {
                assertEquals(n.key() + " loads the SPI of release " + n.release + " from", n.release.spiLocation,
                    l.field("spi"));
                return;
            }
        }

        fail(n.key() + " logged no launch line");
    }

    /** Every running node knows every cache created so far (each create returned on its node). */
    void checkCaches() throws Exception {
        for (String c : caches)
            assertNotNull("cache " + c + " was not created; see " + settings.runDir, awaitLine("CREATED", c));

        for (int attempt = 1; ; attempt++) {
            String s = "q" + (++seq);
            List<String> missing = new ArrayList<>();

            for (NodeProcess n : cluster.running())
                n.command("caches " + s);

            for (NodeProcess n : cluster.running()) {
                NodeHistory.Line l = n.awaitAnswer("CACHES", s, 60_000);

                assertNotNull(n.key() + " did not list its caches", l);

                Set<String> known = CacheChurn.listed(l);

                for (String c : caches) {
                    if (!known.contains(c))
                        missing.add(n.key() + " (" + n.release + ") lacks " + c);
                }
            }

            if (missing.isEmpty())
                return;

            if (attempt == 5)
                fail("caches not known everywhere: " + missing);

            Thread.sleep(2_000);
        }
    }

    /** The client reads back every write any client had acknowledged. */
    void verify() throws Exception {
        NodeProcess c = cluster.current(CLIENT);
        String s = "v" + (++seq);

        c.command("verify " + s);

        NodeHistory.Line l = c.awaitAnswer("VERIFY", s, 120_000);

        assertNotNull(c.key() + " did not answer verify " + s, l);
        assertEquals("read-back of acknowledged writes: " + String.join(" ", l.fields), "ok", l.fields[1]);

        keysVerified = Long.parseLong(l.fields[2]);
    }

    /** The histories so far, the running nodes as survivors, messages still in flight not yet held to delivery. */
    void checkRunningHistories() throws IOException {
        checkHistories(cluster.running().stream().map(NodeProcess::key).collect(Collectors.toSet()),
            System.currentTimeMillis() - ChaosRun.IN_FLIGHT_MS);
    }

    private void checkHistories(Set<String> survivors, long cutoff) throws IOException {
        Set<String> lossy = cluster.everyIncarnation().stream().filter(n -> lossyStops.contains(n.release))
            .map(NodeProcess::key).collect(Collectors.toSet());
        HistoryChecker checker = new HistoryChecker(histories(), survivors, cutoff).lossyStops(lossy);
        List<Violation> found = checker.check();

        lostByOlderStops = checker.lostByOlderStops;

        assertTrue("histories disagree:\n" + found.stream().map(Violation::toString).collect(Collectors.joining("\n")),
            found.isEmpty());
    }

    NodeHistory.Line awaitLine(String kind, String first) throws Exception {
        long end = System.currentTimeMillis() + 60_000;

        do {
            for (NodeHistory h : histories()) {
                for (NodeHistory.Line l : h.lines) {
                    if (l.kind.equals(kind) && l.fields.length > 0 && l.fields[0].equals(first))
                        return l;
                }
            }

            Thread.sleep(250);
        }
        while (System.currentTimeMillis() < end);

        return null;
    }

    List<NodeHistory> histories() throws IOException {
        return NodeHistory.readAll(settings.runDir);
    }

    @Override public void close() {
        try {
            cluster.killAll();
            zk.close();
        }
        finally {
            if (lab != null)
                lab.close();
        }
    }

    /** What a run did, counted from every node's log. */
    static final class Tally {
        final long acknowledgedPuts;
        final long keysReadBack;
        /** Failed puts by exception, as the client logged them. */
        final Map<String, Integer> failedPuts = new TreeMap<>();
        final long eventsCompared;
        final long messagesSent;
        final long deliveries;
        final int caches;
        /** Sends of an older release's node lost at its stop, delivered nowhere (RollingRestart#lossyStops). */
        final List<String> lostByOlderStops;

        Tally(List<NodeHistory> all, long keysReadBack, int caches, List<String> lostByOlderStops) {
            long puts = 0;
            long events = 0;
            long sent = 0;
            long delivered = 0;

            for (NodeHistory h : all) {
                sent += h.sent.size();

                for (NodeHistory.Line l : h.lines) {
                    puts += l.kind.equals("PUT") ? 1 : 0;
                    events += l.kind.equals("EVT") ? 1 : 0;
                    delivered += l.kind.equals("MSG") ? 1 : 0;

                    if (l.kind.equals("PUTFAIL"))
                        failedPuts.merge(l.fields[1].substring(0, Math.max(0, l.fields[1].indexOf(':'))), 1, Integer::sum);
                }
            }

            this.acknowledgedPuts = puts;
            this.keysReadBack = keysReadBack;
            this.eventsCompared = events;
            this.messagesSent = sent;
            this.deliveries = delivered;
            this.caches = caches;
            this.lostByOlderStops = lostByOlderStops;
        }

        @Override public String toString() {
            return "acknowledged puts " + acknowledgedPuts + ", read back " + keysReadBack + " (0 lost), failed puts "
                + failedPuts + ", discovery events compared " + eventsCompared + ", custom messages sent " + messagesSent
                + " and delivered " + deliveries + " times, caches created " + caches
                + (lostByOlderStops.isEmpty() ? "" : ", sends lost at an older release's stop (delivered nowhere) "
                + lostByOlderStops);
        }
    }
}
