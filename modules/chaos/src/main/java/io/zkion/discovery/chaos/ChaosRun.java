package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The chaos run: an ensemble and the nodes as processes, faults one at a time, after each the cluster's recovery
 * and every check; at the end a clean stop, the last checks (no znode left among them) and the report.
 */
public final class ChaosRun {
    /** Messages each of two random nodes sends before a fault. */
    private static final int SENDS = 5;
    /** Sends and deliveries this recent are not yet held to "delivered everywhere" by a check between faults. */
    static final long IN_FLIGHT_MS = 10_000;
    private static final String KEYS = "keys acknowledged";
    private static final String CLIENT_RESTARTS = "clients stopped and started again";
    static final String ORPHANS_MET = "times Ignite's orphaned transaction was met and rolled back";
    private static final String READ_BACK = "keys read back at the end, each at its last acknowledged version or later";

    private final RunSettings settings;
    private final Random rnd;
    private final List<Violation> violations = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private ZkEnsemble zk;
    private Cluster cluster;
    private int verifySeq;
    private long keysVerified;
    private HeldAcks heldAcks;
    private CacheChurn churn;
    private long clientRestarts;
    private final OrphanRemedy remedy = new OrphanRemedy();

    ChaosRun(RunSettings settings) {
        this.settings = settings;
        this.rnd = new Random(settings.seed);
        this.churn = new CacheChurn(rnd);
    }

    /** The log's epoch before the cluster stopped: how often it rolled over. */
    private long logEpoch = -1;

    /** Runs, writes the report as {@code <base>.json|md}, and returns it. */
    ChaosReport run(String base) throws Exception {
        long started = System.currentTimeMillis();

        Files.createDirectories(settings.runDir);

        String why = settings.cutsLinks() ? NetLab.unavailable() : null;

        if (why != null)
            throw new IllegalStateException("The run's network faults need hosts of their own: " + why);

        zk = new ZkEnsemble(settings.runDir, settings.classPath, 192, settings.cutsLinks() ? NetLab.HOST : "127.0.0.1");
        settings.zkConnect = zk.connectString();
        heldAcks = new HeldAcks(settings);

        try {
            // Before the ensemble starts: its servers take clients at the lab's bridge.
            if (settings.cutsLinks())
                settings.lab = new NetLab(settings.nodeNames());

            zk.startAll();
            cluster = new Cluster(settings, zk);

            cluster.startAll();
            cluster.startClients();

            if (!cluster.awaitSettled(settings.recoveryTimeoutMs * 2, () -> true))
                throw new IllegalStateException("The cluster did not form; see " + settings.runDir);

            progress("cluster formed in " + (System.currentTimeMillis() - started) + " ms");

            FaultInjector injector = new FaultInjector(cluster, zk, settings, rnd, violations);

            for (int i = 1; i <= settings.faults; i++) {
                if (!faultAndRecover(injector, new Fault(i, kindOf(i))))
                    break;
            }

            sendFromEveryNode();

            // The last read-back covers every acknowledged write: the clients stop writing first.
            for (NodeProcess n : cluster.running()) {
                if (n.client)
                    n.command("stop-writes");
            }

            for (NodeProcess n : cluster.running()) {
                if (n.client && !writesStopped(n))
                    violations.add(new Violation(Violation.RECOVERY, n.key() + " did not stop writing within 60 s"));
            }

            verifyCache(faults.size());
            noOrphanLeft();

            logEpoch = ZnodeCheck.logEpoch(settings.zkConnect, settings.root);

            Set<String> stopped = cluster.stopAll();

            record(faults.size(), newExits());
            record(faults.size(), new HistoryChecker(histories(), stopped, Long.MAX_VALUE).aimedAt(targets()).check());
            record(faults.size(), FailedCalls.judge(histories(), faults));
            record(faults.size(), countsAddUp(totals()));
            record(0, heldAcks.violations(histories(), faults, started));

            for (String path : ZnodeCheck.leftBehind(settings.zkConnect, settings.root, 30_000))
                record(faults.size(), List.of(new Violation(Violation.ZNODES, path + " left after every node stopped")));
        }
        finally {
            if (cluster != null)
                cluster.killAll();

            try {
                zk.close();
            }
            finally {
                if (settings.lab != null)
                    settings.lab.close();
            }
        }

        violations.sort(java.util.Comparator.comparingInt(v -> v.fault));

        ChaosReport report = new ChaosReport(settings, faults, violations,
            cluster == null ? List.of() : cluster.unplannedExits, totals(), started, System.currentTimeMillis() - started);

        report.write(base);

        return report;
    }

    /** The run's last writes are read back: no server may hold a transaction of a node that left. */
    private void noOrphanLeft() throws Exception {
        OrphanRemedy.Answer a = remedy.apply(cluster, false);
        List<Violation> out = new ArrayList<>();

        if (!a.rolled.isEmpty())
            out.add(new Violation(Violation.RECOVERY, "orphaned transactions open at the end: " + a.rolled));

        for (String n : a.failed)
            out.add(new Violation(Violation.RECOVERY, "could not tell whether a server holds orphaned transactions: " + n));

        record(faults.size(), out);
    }

    /** @return Whether the client wrote WRITES-STOPPED with its workload ended, within a minute; no fixed sleep. */
    private static boolean writesStopped(NodeProcess n) throws Exception {
        NodeHistory.Line l = n.awaitLine(line -> line.kind.equals("WRITES-STOPPED"), 60_000);

        return l != null && (l.fields.length == 0 || !l.fields[0].equals("still-running"));
    }

    /** @return What the report's counts must show for the run to mean anything: work done, every write read back. */
    private List<Violation> countsAddUp(Map<String, Long> t) {
        List<Violation> out = new ArrayList<>();

        for (String k : List.of("custom messages sent", "of them mutable", "custom message deliveries (all nodes)",
            "ack deliveries (all nodes)", "acknowledged cache writes", "keys written more than once",
            "caches created", "caches destroyed", CLIENT_RESTARTS)) {
            // A client's restart comes with the second fault, the first destroy with the third.
            int from = k.equals(CLIENT_RESTARTS) ? 2 : k.equals("caches destroyed") ? 3 : 0;

            if (faults.size() >= from && t.get(k) <= 0)
                out.add(new Violation(Violation.COUNTS, k + " is " + t.get(k) + ": the run tested nothing there"));
        }

        if (!t.get(READ_BACK).equals(t.get(KEYS)))
            out.add(new Violation(Violation.COUNTS, "read back " + t.get(READ_BACK) + " of " + t.get(KEYS)
                + " acknowledged keys at the end"));

        return out;
    }

    /** How many of the cluster's unplanned exits are judged already. */
    private int exitsJudged;

    /** @return The exits no fault asked for since the last call, each a violation: wrongly segmented, crashed, unclean. */
    private List<Violation> newExits() {
        List<String> exits = cluster.unplannedExits;
        List<Violation> out = new ArrayList<>();

        for (; exitsJudged < exits.size(); exitsJudged++)
            out.add(new Violation(Violation.UNPLANNED_EXIT, exits.get(exitsJudged)));

        return out;
    }

    /** @return Whether the run goes on: the cluster settled after the fault. */
    private boolean faultAndRecover(FaultInjector injector, Fault f) throws Exception {
        faults.add(f);

        for (int k = 0; k < 2; k++) {
            List<NodeProcess> all = cluster.running();

            all.get(rnd.nextInt(all.size())).command("send " + SENDS);
        }

        churn.before(f.index, cluster.running(false));

        // Clients leave and join as workload too, not only through faults: every fourth fault, one stops gracefully
        // and starts again (a stop that is not clean is an unplanned exit).
        if (f.index % 4 == 2)
            restartAClient(f);

        injector.inject(f);

        boolean settled = awaitRecovery(f, f.effect, "fault " + f.index);

        if (settled)
            f.recoveryMs = System.currentTimeMillis() - f.injectedAt;
        else
            violations.add(new Violation(Violation.RECOVERY, "the cluster did not settle within "
                + settings.recoveryTimeoutMs + " ms after fault " + f.index + " (" + f.kind + ' ' + f.target + ')'));

        violations.addAll(newExits());

        // Violations added directly (by the injection, the recovery wait, a client's restart before the fault, the
        // exits): stamped with the fault and given their line in progress.txt, as record() gives the others.
        for (Violation v : violations) {
            if (v.fault == 0) {
                v.fault = f.index;
                progress("VIOLATION after fault " + f.index + ": " + v);
            }
        }

        if (settled) {
            sweep(f, "after fault " + f.index + " settled");
            record(f.index, churn.check(cluster));
            verifyCache(f.index);

            Set<String> alive = new HashSet<>();

            for (NodeProcess n : cluster.running())
                alive.add(n.key());

            HistoryChecker checker = new HistoryChecker(histories(), alive, System.currentTimeMillis() - IN_FLIGHT_MS)
                .aimedAt(targets());

            record(f.index, checker.check());
            heldAcks.note(f.index, checker.heldAcks, cluster.coordinator());
        }

        progress("fault " + f.index + '/' + settings.faults + ' ' + f.kind + ' ' + f.target + ": recovered in "
            + f.recoveryMs + " ms, violations so far " + violations.size());

        return settled;
    }

    /**
     * Waits for the cluster to settle once {@code effect} holds; past {@link OrphanRemedy#AFTER_MS}, rolls back
     * Ignite's orphaned transactions, if a server holds one, noting it on {@code f}, and waits the rest of the
     * recovery timeout. @return whether it settled.
     */
    private boolean awaitRecovery(Fault f, java.util.function.BooleanSupplier effect, String after) throws Exception {
        long start = System.currentTimeMillis();
        long first = Math.min(OrphanRemedy.AFTER_MS, settings.recoveryTimeoutMs);

        if (cluster.awaitSettled(first, effect))
            return true;

        if (first == settings.recoveryTimeoutMs)
            return false;

        sweep(f, "not settled " + first / 1000 + " s after " + after);

        return cluster.awaitSettled(Math.max(0, settings.recoveryTimeoutMs - (System.currentTimeMillis() - start)),
            effect);
    }

    /**
     * Rolls back Ignite's orphaned transactions a server holds, noting on {@code f} what was found {@code when}. After
     * every fault too, once the cluster settled: an orphan may hold only a key's lock, on which a client's writes then
     * wait with no exchange held, until its graceful stop fails.
     */
    private void sweep(Fault f, String when) throws Exception {
        OrphanRemedy.Answer a = remedy.apply(cluster, true);
        String note = "";

        if (!a.rolled.isEmpty())
            note = when + ": Ignite's orphaned transaction rolled back on " + a.rolled;

        if (!a.failed.isEmpty())
            note += (note.isEmpty() ? "" : "; ") + "no orphan check on " + a.failed;

        if (!note.isEmpty()) {
            f.remedy = (f.remedy.isEmpty() ? "" : f.remedy + "; ") + note;
            progress("fault " + f.index + ": " + note);
        }
    }

    /** @return The incarnations the faults so far were aimed at, with the times they were injected. */
    private Map<String, List<Long>> targets() {
        Map<String, List<Long>> out = new HashMap<>();

        for (Fault f : faults) {
            if (f.target != null)
                out.computeIfAbsent(f.target.split(" ")[0], k -> new ArrayList<>()).add(f.injectedAt);
        }

        return out;
    }

    /** Restarts a client before fault {@code f}: what the wait after it meets is noted on {@code f}. */
    private void restartAClient(Fault f) throws Exception {
        List<NodeProcess> clients = cluster.running(true);

        clients.removeIf(n -> !n.alive());

        if (clients.isEmpty())
            return;

        NodeProcess c = clients.get(rnd.nextInt(clients.size()));

        cluster.replace(c.name, c.release);
        clientRestarts++;

        // Joined again before the fault: a fault aimed at a node still starting tests its start, not the fault (a
        // client cut from ZooKeeper before it had connected failed its start, as it should, and the run counted that).
        if (!awaitRecovery(f, () -> true, "client " + c.name + "'s restart before fault " + f.index))
            violations.add(new Violation(Violation.RECOVERY, "the cluster did not settle within "
                + settings.recoveryTimeoutMs + " ms after client " + c.name + " restarted"));
    }

    /** The first faults take every kind once, in a random order, so even a short run has each; then at random. */
    private FaultKind kindOf(int i) {
        List<FaultKind> kinds = new ArrayList<>(settings.kinds);

        if (i <= kinds.size()) {
            Collections.shuffle(kinds, new Random(settings.seed));
            return kinds.get(i - 1);
        }

        return kinds.get(rnd.nextInt(kinds.size()));
    }

    private void sendFromEveryNode() {
        for (NodeProcess n : cluster.running())
            n.command("send " + SENDS);
    }

    /** A client reads back every acknowledged write; a read that fails for a moment (a fault's aftermath) is retried. */
    private void verifyCache(int fault) throws Exception {
        for (int attempt = 0; attempt < 4; attempt++) {
            NodeProcess c = cluster.running().stream().filter(n -> n.client && n.alive()).findFirst().orElse(null);

            if (c == null)
                break;

            String seq = String.valueOf(++verifySeq);

            c.command("verify " + seq);

            NodeHistory.Line answer = c.awaitAnswer("VERIFY", seq, 120_000);

            if (answer == null)
                continue;

            if (answer.fields[1].equals("ok")) {
                keysVerified = Long.parseLong(answer.fields[2]);
                return;
            }

            if (answer.fields[1].equals("bad")) {
                record(fault, List.of(new Violation(Violation.CACHE, c.key() + " read back " + answer.fields[2]
                    + " acknowledged keys: " + answer.fields[3] + " missing or wrong, e.g. " + answer.fields[4])));
                return;
            }

            Thread.sleep(2_000);
        }

        record(fault, List.of(new Violation(Violation.CACHE, "no client could read the acknowledged writes back "
            + "(4 attempts)")));
    }

    private void record(int fault, List<Violation> found) {
        for (Violation v : found) {
            if (!violations.contains(v)) {
                if (fault > 0)
                    v.fault = fault;

                violations.add(v);
                progress("VIOLATION after fault " + fault + ": " + v);
            }
        }
    }

    private List<NodeHistory> histories() throws IOException {
        return NodeHistory.readAll(settings.runDir);
    }

    private Map<String, Long> totals() throws IOException {
        Map<String, Long> t = new LinkedHashMap<>();
        long sent = 0;
        long delivered = 0;
        long acks = 0;
        long puts = 0;
        long mutable = 0;
        Map<String, Integer> writesPerKey = new java.util.HashMap<>();

        for (NodeHistory h : histories()) {
            sent += h.sent.size();
            mutable += h.sent.keySet().stream().filter(tag -> tag.endsWith("m")).count();

            for (NodeHistory.Line l : h.lines) {
                delivered += l.kind.equals("MSG") ? 1 : 0;
                acks += l.kind.equals("ACK") ? 1 : 0;

                if (l.kind.equals("PUT")) {
                    puts++;
                    writesPerKey.merge(l.fields[0], 1, Integer::sum);
                }
            }
        }

        t.put("custom messages sent", sent);
        t.put("of them mutable", mutable);
        t.put("custom message deliveries (all nodes)", delivered);
        t.put("ack deliveries (all nodes)", acks);
        t.put("acknowledged cache writes", puts);
        t.put(KEYS, (long)writesPerKey.size());
        t.put("keys written more than once", writesPerKey.values().stream().filter(c -> c > 1).count());
        t.put(READ_BACK, keysVerified);
        t.put("caches created", churn.created);
        t.put("caches destroyed", churn.destroyed);
        t.put(CLIENT_RESTARTS, clientRestarts);
        t.put("node incarnations started", cluster == null ? 0L : cluster.everyIncarnation().size());
        t.put("log rollovers (the log's epoch at the end)", logEpoch);
        t.put(ORPHANS_MET, remedy.met);
        t.put("orphaned transactions rolled back", remedy.rolledBack);

        return t;
    }

    /**
     * Prints {@code s}, and appends it to the run directory's {@code progress.txt} (not a .log: every *.log there is
     * read as a node's history). Surefire hands the test's output on only when it ends; a long run is followed there.
     */
    private void progress(String s) {
        String line = "[chaos " + java.time.LocalTime.now().withNano(0) + "] " + s;

        System.out.println(line);

        try {
            Files.writeString(settings.runDir.resolve("progress.txt"), line + System.lineSeparator(),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }
        catch (IOException e) {
            System.out.println("[chaos] cannot append to progress.txt: " + e.getMessage());
        }
    }
}
