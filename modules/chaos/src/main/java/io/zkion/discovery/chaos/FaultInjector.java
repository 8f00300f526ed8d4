package io.zkion.discovery.chaos;

import java.nio.file.Files;
import java.util.List;
import java.util.Random;

/**
 * Injects one fault into the running cluster and, for a paused node, checks how it came back: a server must
 * be segmented and exit, a client must rejoin under a new id (or be segmented); never carry on as it was.
 */
final class FaultInjector {
    /** How long a paused node gets to notice, once continued, that the cluster went on without it. */
    private static final long COME_BACK_MS = 45_000;

    private final Cluster cluster;
    private final ZkEnsemble zk;
    private final RunSettings settings;
    private final Random rnd;
    private final List<Violation> violations;
    private final NetworkFaults net;

    FaultInjector(Cluster cluster, ZkEnsemble zk, RunSettings settings, Random rnd, List<Violation> violations) {
        this.cluster = cluster;
        this.zk = zk;
        this.settings = settings;
        this.rnd = rnd;
        this.violations = violations;
        this.net = new NetworkFaults(cluster, settings, violations);
    }

    void inject(Fault f) throws Exception {
        switch (f.kind) {
            case KILL_COORDINATOR:
                kill(f, cluster.coordinator());
                break;
            case KILL_NODE:
                kill(f, randomNode());
                break;
            case EXPIRE_SESSION: {
                NodeProcess n = randomNode();

                f.target = n.key();
                f.injectedAt = System.currentTimeMillis();

                if (n.client) {
                    // A client rejoins under a new id: recovered once it reports one.
                    NodeStatus before = n.status();
                    String oldId = before == null ? "" : before.id;

                    f.effect = () -> {
                        NodeStatus now = cluster.current(n.name).status();

                        return now != null && !now.id.equals(oldId);
                    };
                }
                else {
                    cluster.expectDown(n.name); // segmented, so it exits
                    f.effect = () -> !n.alive();
                }

                // Both seams: the session ended on the server, or ZooKeeper's client told it expired.
                boolean onServer = rnd.nextBoolean();

                f.note = onServer ? "ended on the server" : "expiry injected in the client";
                n.command(onServer ? "expire" : "expire-local");
                break;
            }
            case ZK_SERVER_RESTART: {
                int i = rnd.nextInt(ZkEnsemble.SIZE);
                long down = 2_000 + rnd.nextInt(4_000);

                f.target = "zk" + (i + 1);
                f.injectedAt = System.currentTimeMillis();
                zk.kill(i);
                Thread.sleep(down);
                zk.start(i);
                f.note = "down " + down + " ms";
                break;
            }
            case PAUSE_NODE:
                pause(f, randomNode());
                break;
            case LOSE_REPLY: {
                NodeProcess n = randomNode();

                f.target = n.key();
                f.injectedAt = System.currentTimeMillis();
                n.command("lose-reply");
                n.command("send 3");
                f.effect = () -> !n.alive() || seen(n, "LOSTREPLY", f.injectedAt);
                break;
            }
            case CUT_FROM_ZOOKEEPER:
                net.cutFromZooKeeper(f, randomNode());
                break;
            case SLOW_LINK:
                net.slowLink(f, randomNode(), rnd.nextBoolean());
                break;
            case CUT_SERVERS: {
                List<NodeProcess> servers = cluster.running(false);

                java.util.Collections.shuffle(servers, rnd);
                net.cutServers(f, servers.get(0), servers.get(1));
                break;
            }
            default:
                throw new IllegalArgumentException(f.kind.toString());
        }
    }

    private void kill(Fault f, NodeProcess n) throws InterruptedException {
        f.target = n.key() + (n.client ? " (client)" : " (server)");
        cluster.expectDown(n.name);
        f.injectedAt = System.currentTimeMillis();
        n.kill9();
    }

    private void pause(Fault f, NodeProcess n) throws Exception {
        long held = settings.sessionTimeout + 4_000L;

        f.target = n.key() + (n.client ? " (client)" : " (server)");

        if (!n.client)
            cluster.expectDown(n.name); // segmented, so it exits

        n.signal("STOP");
        Thread.sleep(held);
        n.signal("CONT");
        f.injectedAt = System.currentTimeMillis();
        f.note = "stopped " + held + " ms";

        if (n.client) {
            // A client rejoins under a new id; one that exits segmented is not half-alive either.
            if (awaitLine(n, "RECONNECTED", f.injectedAt))
                return;

            cluster.expectDown(n.name);

            if (!n.awaitExit(1)) {
                violations.add(new Violation(Violation.HALF_ALIVE, "client " + n.key() + " neither rejoined nor "
                    + "exited within " + COME_BACK_MS + " ms of SIGCONT after a pause of " + held + " ms"));
                n.kill9();
            }

            return;
        }

        if (!n.awaitExit(COME_BACK_MS)) {
            violations.add(new Violation(Violation.HALF_ALIVE, "server " + n.key() + " still running " + COME_BACK_MS
                + " ms after SIGCONT, after a pause of " + held + " ms past its session timeout"));
            n.kill9();
        }
        else if (!NodeHistory.read(n.logFile()).has("SEGMENTED"))
            violations.add(new Violation(Violation.HALF_ALIVE, "server " + n.key() + " exited " + n.exitCode()
                + " after its pause without being segmented"));
    }

    private static boolean seen(NodeProcess n, String kind, long since) {
        try {
            return Files.exists(n.logFile())
                && NodeHistory.read(n.logFile()).lines.stream().anyMatch(l -> l.kind.equals(kind) && l.time >= since);
        }
        catch (java.io.IOException e) {
            return false;
        }
    }

    /** @return Whether the node's log gets a {@code kind} line at or after {@code since} within the wait. */
    private static boolean awaitLine(NodeProcess n, String kind, long since) throws Exception {
        long end = System.currentTimeMillis() + COME_BACK_MS;

        while (System.currentTimeMillis() < end) {
            if (seen(n, kind, since))
                return true;

            if (!n.alive())
                return false;

            Thread.sleep(250);
        }

        return false;
    }

    private NodeProcess randomNode() {
        List<NodeProcess> all = cluster.running();

        return all.get(rnd.nextInt(all.size()));
    }
}
