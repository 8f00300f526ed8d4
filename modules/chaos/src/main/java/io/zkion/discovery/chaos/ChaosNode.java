package io.zkion.discovery.chaos;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.ZkIonDiscoverySpi;
import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.events.DiscoveryEvent;
import org.apache.ignite.events.Event;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.lang.IgnitePredicate;

/**
 * One node of the chaos run, in its own JVM: {@code ChaosNode server|client <name> <incarnation> <zk> <root> <dir>}.
 * It writes what it sees to {@code <dir>/<name>.<incarnation>.log} ({@link EventLog}), its state to
 * {@code <name>.status} ({@link StatusWriter}), and takes one command a line on stdin: {@code expire} (its session
 * ended on the server), {@code expire-local} (ZooKeeper's client told its session expired), {@code lose-reply},
 * {@code send <n>}, {@code create-cache <name>} (and a put into it; both on a worker thread, in order),
 * {@code caches <seq>} (the cache names this node knows), {@code outage <seq>} (the SPI's outage state and
 * figures), {@code orphans <seq>} (servers: roll back {@link OrphanedTransactions}), {@code stop-writes} and
 * {@code verify <seq>} (clients), {@code stop}.
 * It exits once its Ignite node stopped, whatever stopped it: a segmented node does not linger.
 */
public final class ChaosNode {
    /** Exit codes the controller reads. */
    static final int EXIT_STOPPED = 0;
    static final int EXIT_SEGMENTED = 3;
    static final int EXIT_OTHER = 4;

    private final String name;
    private final int incarnation;
    private final EventLog log;
    private final AtomicBoolean loseNextReply = new AtomicBoolean();
    private final AtomicInteger sent = new AtomicInteger();
    private volatile boolean segmented;
    /** Sends and cache creates, in order, off the command thread: they wait while ZooKeeper is out, queries do not. */
    private final java.util.concurrent.ExecutorService work = java.util.concurrent.Executors.newSingleThreadExecutor(
        r -> {
            Thread t = new Thread(r, "chaos-work");
            t.setDaemon(true);
            return t;
        });
    private Ignite ignite;
    private CacheWorkload workload;

    private ChaosNode(String name, int incarnation, EventLog log) {
        this.name = name;
        this.incarnation = incarnation;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        boolean client = "client".equals(args[0]);
        String name = args[1];
        int incarnation = Integer.parseInt(args[2]);
        Path dir = Paths.get(args[5]);
        int sessionTimeout = Integer.getInteger("zkion.chaos.sessionTimeout", 6_000);
        EventLog log = new EventLog(dir.resolve(name + '.' + incarnation + ".log"));

        Coordinator.rollLogAtForTest(Long.getLong("zkion.chaos.rollLogAt", 0));

        new ChaosNode(name, incarnation, log).run(client, args[3], args[4], dir, sessionTimeout);
    }

    private void run(boolean client, String zk, String root, Path dir, int sessionTimeout) throws Exception {
        IgniteConfiguration cfg = NodeConfig.build(name, client, zk, root, sessionTimeout, faults());

        cfg.setIncludeEventTypes(EventType.EVT_NODE_JOINED, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED,
            EventType.EVT_NODE_SEGMENTED, EventType.EVT_CLIENT_NODE_DISCONNECTED, EventType.EVT_CLIENT_NODE_RECONNECTED);
        cfg.setLocalEventListeners(listeners());

        CountDownLatch stopped = new CountDownLatch(1);

        // Registered before the start, so that a node stopped while starting still exits.
        Ignition.addListener((n, state) -> {
            if (name.equals(n) && state != IgniteState.STARTED)
                stopped.countDown();
        });

        // Which build of the plugin this process runs, as the class loader found it: the mixed-release tests check it.
        log.write("LAUNCH", "pid=" + ProcessHandle.current().pid(), "release=" + System.getProperty("zkion.chaos.release"),
            "spi=" + Release.locationOf(ZkIonDiscoverySpi.class));

        try {
            ignite = Ignition.start(cfg);
        }
        catch (Exception e) {
            Throwable cause = e;

            // The deepest cause: a refused join's reason, as the coordinator's Ignite gave it.
            while (cause.getCause() != null && cause.getCause() != cause)
                cause = cause.getCause();

            log.write("STARTFAIL", oneLine(cause));
            Runtime.getRuntime().halt(EXIT_OTHER);
        }

        ((IgniteEx)ignite).context().discovery().setCustomEventListener(ChaosPing.class, (topVer, snd, msg) ->
            log.write(msg.ack ? "ACK" : "MSG", topVer.topologyVersion(), msg.tag, snd.id()));

        log.write("START", "id=" + ignite.cluster().localNode().id(), "order=" + ignite.cluster().localNode().order(),
            "topVer=" + ignite.cluster().topologyVersion(), client ? "client" : "server");

        if (client)
            workload = new CacheWorkload(ignite, name + '.' + incarnation, log, dir);

        new StatusWriter(ignite, dir.resolve(name + ".status"), incarnation, client).start();

        Thread commands = new Thread(this::readCommands, "chaos-commands");

        commands.setDaemon(true);
        commands.start();

        if (workload != null)
            workload.start();

        stopped.await();

        IgniteState state = Ignition.state(name);

        log.write("STOPPED", state, segmented ? "segmented" : "");
        // halt, not exit: shutdown hooks of a half-stopped node must not keep the process alive.
        Runtime.getRuntime().halt(segmented || state == IgniteState.STOPPED_ON_SEGMENTATION ? EXIT_SEGMENTED
            : state == IgniteState.STOPPED ? EXIT_STOPPED : EXIT_OTHER);
    }

    /** Loses the reply of the next commit after a {@code lose-reply} command: Curator sends it again. */
    private ZkFaults faults() {
        return new ZkFaults() {
            @Override public boolean loseReplyAfterCommit(List<CuratorOp> ops) {
                if (!loseNextReply.compareAndSet(true, false))
                    return false;

                StringBuilder paths = new StringBuilder();

                for (CuratorOp op : ops)
                    paths.append(paths.length() == 0 ? "" : ",").append(op.get().getPath());

                log.write("LOSTREPLY", paths);

                return true;
            }
        };
    }

    private Map<IgnitePredicate<? extends Event>, int[]> listeners() {
        Map<IgnitePredicate<? extends Event>, int[]> map = new HashMap<>();

        map.put((IgnitePredicate<DiscoveryEvent>)e -> {
            log.write("EVT", e.topologyVersion(), e.name(), e.eventNode().id(), e.eventNode().order());
            return true;
        }, new int[] {EventType.EVT_NODE_JOINED, EventType.EVT_NODE_LEFT, EventType.EVT_NODE_FAILED});

        map.put((IgnitePredicate<DiscoveryEvent>)e -> {
            segmented = true;
            log.write("SEGMENTED", e.topologyVersion());
            return true;
        }, new int[] {EventType.EVT_NODE_SEGMENTED});

        map.put((IgnitePredicate<DiscoveryEvent>)e -> {
            log.write("DISCONNECTED", e.topologyVersion());
            return true;
        }, new int[] {EventType.EVT_CLIENT_NODE_DISCONNECTED});

        map.put((IgnitePredicate<DiscoveryEvent>)e -> {
            log.write("RECONNECTED", "id=" + e.eventNode().id(), "order=" + e.eventNode().order(),
                "topVer=" + e.topologyVersion());
            return true;
        }, new int[] {EventType.EVT_CLIENT_NODE_RECONNECTED});

        return map;
    }

    private void readCommands() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                try {
                    execute(line.trim().split(" "));
                }
                catch (Exception e) {
                    log.write("CMDFAIL", line.replace(' ', '_'), oneLine(e));
                }
            }
        }
        catch (Exception e) {
            log.write("CMDFAIL", "stdin", oneLine(e));
        }

        // The controller is gone: nobody would ever stop this node.
        log.write("ORPHANED");
        Runtime.getRuntime().halt(EXIT_OTHER);
    }

    private void execute(String[] cmd) throws Exception {
        switch (cmd[0]) {
            case "expire":
                log.write("EXPIRE", "server");
                spi().engine().expireSessionOnServerForTest();
                break;
            case "expire-local":
                log.write("EXPIRE", "client");
                spi().engine().expireSessionForTest();
                break;
            case "stop-writes":
                workload.stopWorkload();
                workload.join(60_000);
                log.write("WRITES-STOPPED", workload.isAlive() ? "still-running" : "");
                break;
            case "lose-reply":
                log.write("ARMED");
                loseNextReply.set(true);
                break;
            case "send":
                work.execute(() -> send(Integer.parseInt(cmd[1])));
                break;
            case "create-cache":
                work.execute(() -> createCache(cmd[1]));
                break;
            case "destroy-cache":
                work.execute(() -> destroyCache(cmd[1]));
                break;
            case "outage":
                // The SPI's own account of ZooKeeper outages, as its MXBean and metrics give it.
                log.write("OUTAGE", cmd[1], "state=" + spi().engine().outageState(), "outages="
                    + spi().discoveryMetrics().outages(), "frozenMs=" + spi().discoveryMetrics().outageMillis(),
                    "held=" + spi().discoveryMetrics().messagesHeld());
                break;
            case "caches":
                log.write("CACHES", cmd[1], new TreeSet<>(ignite.cacheNames()).toString().replace(" ", ""));
                break;
            case "verify":
                workload.verify(cmd[1]);
                break;
            case "orphans":
                // Its own thread: a rollback's task that waits must not hold the commands after it.
                Thread t = new Thread(() -> rollBackOrphans(cmd[1]), "chaos-orphans");
                t.setDaemon(true);
                t.start();
                break;
            case "stop":
                log.write("STOPPING");
                if (workload != null) {
                    // A put under way when Ignite stops would fail, and no fault was aimed at this node.
                    workload.stopWorkload();
                    workload.join(60_000);
                }
                awaitWork(60_000);
                // From here Ignite stops, and hands this node's listeners less and less (HistoryChecker).
                log.write("IGNITESTOP");
                Ignition.stop(name, true);
                break;
            default:
                log.write("CMDFAIL", cmd[0], "unknown");
        }
    }

    /**
     * Waits until the worker has carried out what was given to it before now: a send or a cache create given before
     * a stop happens before it, as the controller means.
     */
    private void awaitWork(long ms) {
        try {
            work.submit(() -> { }).get(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        catch (Exception e) {
            log.write("CMDFAIL", "stop_drain", oneLine(e));
        }
    }

    private void rollBackOrphans(String seq) {
        try {
            List<String> found = OrphanedTransactions.rollBack((IgniteEx)ignite);

            log.write("ORPHANS", seq, found.size(), found.isEmpty() ? "-" : String.join(",", found));
        }
        catch (Exception e) {
            // An answer the run judges (OrphanRemedy), not a CMDFAIL: the run asks only when something is wrong already.
            log.write("ORPHANS", seq, -1, oneLine(e));
        }
    }

    private void createCache(String cache) {
        try {
            // Few partitions: the last nodes of a run hold every cache in their small data regions.
            ignite.getOrCreateCache(new CacheConfiguration<String, String>(cache).setBackups(1)
                .setAffinity(new RendezvousAffinityFunction(false, 16))).put(cache, name);
            log.write("CREATED", cache);
        }
        catch (Exception e) {
            log.write("CMDFAIL", "create-cache_" + cache, oneLine(e));
        }
    }

    private void destroyCache(String cache) {
        try {
            ignite.destroyCache(cache);
            log.write("DESTROYED", cache);
        }
        catch (Exception e) {
            log.write("CMDFAIL", "destroy-cache_" + cache, oneLine(e));
        }
    }

    /**
     * Sends {@code n} pings; SENT is written only once the send returned, so the message is in ZooKeeper. SENDING
     * comes first: a send that began before this node was failed out and rejoined (a pause past its session) may
     * return after the rejoin, and the node delivered it in the membership it left, or not at all.
     */
    private void send(int n) {
        for (int i = 0; i < n; i++) {
            long seq = sent.incrementAndGet();
            // Every third one mutable: it waits in the coordinator's queue, whose hand-over under faults it tests.
            boolean mutable = seq % 3 == 0;
            String tag = name + '.' + incarnation + '.' + seq + (mutable ? "m" : "");

            log.write("SENDING", tag);

            try {
                ((IgniteEx)ignite).context().discovery().sendCustomEvent(new ChaosPing(tag, false, mutable));
                log.write("SENT", tag);
            }
            catch (Exception e) {
                log.write("SENDFAIL", tag, oneLine(e));
            }
        }
    }

    private ZkIonDiscoverySpi spi() {
        return (ZkIonDiscoverySpi)ignite.configuration().getDiscoverySpi();
    }

    static String oneLine(Throwable e) {
        return (e.getClass().getSimpleName() + ':' + e.getMessage()).replaceAll("\\s+", "_");
    }
}
