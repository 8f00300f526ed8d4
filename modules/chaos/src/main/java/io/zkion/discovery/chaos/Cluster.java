package io.zkion.discovery.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The chaos nodes as the controller keeps them: one running incarnation per name, restarted under the next
 * incarnation when it is gone, so that the cluster comes back to its servers and clients after every fault.
 */
final class Cluster {
    private final RunSettings settings;
    private final ZkEnsemble zk;
    private final Map<String, NodeProcess> nodes = new LinkedHashMap<>();
    private final List<NodeProcess> past = new ArrayList<>();
    /** Names a fault is meant to take down: their exit is the fault's doing, not an incident. */
    private final Set<String> expectedDown = new HashSet<>();
    /** The release each name runs when next started; the build under test unless set. */
    private final Map<String, Release> releases = new HashMap<>();
    /** The connect string each name uses when it is not the ensemble's own: a proxy in front of it. */
    private final Map<String, String> zkConnects = new HashMap<>();
    /** Exits nobody caused: a node that stopped by itself. */
    final List<String> unplannedExits = new ArrayList<>();
    private int nextIncarnation;

    Cluster(RunSettings settings, ZkEnsemble zk) {
        this.settings = settings;
        this.zk = zk;
    }

    void startAll() throws IOException {
        for (int i = 1; i <= settings.servers; i++)
            start("s" + i, false);
    }

    void startClients() throws IOException {
        for (int i = 1; i <= settings.clients; i++)
            start("c" + i, true);
    }

    private void start(String name, boolean client) throws IOException {
        NodeProcess old = nodes.get(name);

        if (old != null)
            past.add(old);

        nodes.put(name, NodeProcess.start(name, client, nextIncarnation++, settings,
            releases.computeIfAbsent(name, n -> Release.current(settings)), zkConnects.getOrDefault(name,
            settings.zkConnect)));
    }

    /** Node {@code name} reaches ZooKeeper through {@code zkConnect} from its next start on. */
    void connectsVia(String name, String zkConnect) {
        zkConnects.put(name, zkConnect);
    }

    /** Node {@code name} runs {@code release} from its next start on. */
    void runs(String name, Release release) {
        releases.put(name, release);
    }

    /**
     * Stops node {@code name} gracefully and starts it again running {@code release}: one step of a rolling
     * restart. @return Whether the old incarnation stopped cleanly (else it is killed first).
     */
    boolean replace(String name, Release release) throws IOException, InterruptedException {
        NodeProcess old = nodes.get(name);
        boolean clean;

        expectDown(name);
        old.command("stop");
        clean = old.awaitExit(60_000) && old.exitCode() == ChaosNode.EXIT_STOPPED;

        if (!clean) {
            unplannedExits.add(old.key() + " did not stop cleanly on stop (exit " + old.exitCode() + ')');
            old.kill9();
        }

        expectedDown.remove(name);
        runs(name, release);
        start(name, old.client);

        return clean;
    }

    List<NodeProcess> running() {
        return new ArrayList<>(nodes.values());
    }

    /** @return The running incarnations of the clients, or of the servers. */
    List<NodeProcess> running(boolean clients) {
        List<NodeProcess> out = running();

        out.removeIf(n -> n.client != clients);

        return out;
    }

    NodeProcess current(String name) {
        return nodes.get(name);
    }

    /** @return Every incarnation ever started, the running ones last. */
    List<NodeProcess> everyIncarnation() {
        List<NodeProcess> all = new ArrayList<>(past);

        all.addAll(nodes.values());

        return all;
    }

    void expectDown(String name) {
        expectedDown.add(name);
    }

    /** Node {@code name} is no longer meant to go down: a fault that could have taken it spared it. */
    void expectUp(String name) {
        expectedDown.remove(name);
    }

    /** @return The server that coordinates: the oldest by order among those that report a status. */
    NodeProcess coordinator() {
        NodeProcess crd = null;
        long min = Long.MAX_VALUE;

        for (NodeProcess n : nodes.values()) {
            NodeStatus s = n.client ? null : n.status();

            if (s != null && n.alive() && s.order < min) {
                min = s.order;
                crd = n;
            }
        }

        return crd;
    }

    /** Starts a new incarnation of every node whose process ended; notes the ends no fault asked for. */
    void restartDead() throws IOException {
        for (NodeProcess n : running()) {
            if (n.alive())
                continue;

            if (refusedForItsLastLife(n))
                expectedDown.add(n.name); // Started again at once, as an operator might: it fails until the last one is out.
            else if (!expectedDown.remove(n.name))
                unplannedExits.add(n.key() + " exited " + n.exitCode() + " at " + System.currentTimeMillis()
                    + " with no fault aimed at it");

            start(n.name, n.client);
        }
    }

    /**
     * @return Whether {@code n} failed to start only because its previous incarnation, killed or expired, is still in
     *      the topology: it has the same consistent id, and Ignite refuses a second node with the same affinity hash
     *      until the first is failed (any discovery SPI does). Its start fails cleanly, naming that node.
     */
    private boolean refusedForItsLastLife(NodeProcess n) throws IOException {
        String refusal = null;

        for (NodeHistory.Line l : linesOf(n)) {
            if (l.kind.equals("STARTFAIL"))
                refusal = String.join(" ", l.fields);
        }

        if (refusal == null || !refusal.contains("same_hash_code_for_partitioned_affinity"))
            return false;

        for (NodeProcess old : past) {
            if (old.name.equals(n.name) && old != n) {
                for (NodeHistory.Line l : linesOf(old)) {
                    String id = l.field("id");

                    if ((l.kind.equals("START") || l.kind.equals("RECONNECTED")) && id != null
                        && refusal.contains("existingNodeId=" + id))
                        return true;
                }
            }
        }

        return false;
    }

    /** @return The lines of {@code n}'s log; none if it wrote none (it died before it could, or never launched). */
    private static List<NodeHistory.Line> linesOf(NodeProcess n) throws IOException {
        return java.nio.file.Files.exists(n.logFile()) ? NodeHistory.read(n.logFile()).lines : List.of();
    }

    /**
     * @return Whether the cluster is whole and settled: every node running and reporting since {@code since}, all at
     *      one topology version with every server and client in it, every partition with both owners, every ZooKeeper server up.
     */
    boolean settled(long since) {
        long now = System.currentTimeMillis();
        Long topVer = null;

        for (NodeProcess n : nodes.values()) {
            NodeStatus s = n.status();

            if (!n.alive() || s == null || now - s.time > 2_000 || s.time < since || s.servers != settings.servers
                || s.clients != settings.clients || !s.replicated)
                return false;

            if (topVer != null && topVer != s.topVer)
                return false;

            topVer = s.topVer;
        }

        return zk.allServing();
    }

    /**
     * Restarts what ended and waits until {@code effect} holds and then the cluster is settled, by statuses written
     * after it held; @return whether that happened within the timeout.
     */
    boolean awaitSettled(long timeoutMs, BooleanSupplier effect) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        long since = Long.MAX_VALUE;

        while (System.currentTimeMillis() < end) {
            restartDead();

            if (since == Long.MAX_VALUE && effect.getAsBoolean())
                since = System.currentTimeMillis();

            if (since != Long.MAX_VALUE && settled(since))
                return true;

            Thread.sleep(250);
        }

        return false;
    }

    /** Stops every node gracefully, clients first; @return the incarnations that stopped cleanly. */
    Set<String> stopAll() throws InterruptedException {
        Set<String> stopped = new HashSet<>();
        List<NodeProcess> order = new ArrayList<>();

        nodes.values().stream().filter(n -> n.client).forEach(order::add);
        nodes.values().stream().filter(n -> !n.client).forEach(order::add);

        for (NodeProcess n : order) {
            n.command("stop");

            if (n.awaitExit(60_000) && n.exitCode() == ChaosNode.EXIT_STOPPED)
                stopped.add(n.key());
            else {
                unplannedExits.add(n.key() + " did not stop cleanly on stop (exit " + n.exitCode() + ')');
                n.kill9();
            }
        }

        return stopped;
    }

    void killAll() {
        for (NodeProcess n : nodes.values()) {
            try {
                n.kill9();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
