package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.msg.ConnectivityReport;
import io.zkion.discovery.coordinator.CoordinatorTask;
import io.zkion.discovery.internal.InternalMessage;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CommunicationFailureResolver;

/**
 * The coordinator's part in communication-failure rounds, as explicit states read from the log:
 * <ul>
 *     <li>no round open: a call under {@code comm/} opens one, with a {@link RoundStart} entry that takes the calls;
 *     every node of that topology then checks its connections and reports;</li>
 *     <li>a round open: once every node still alive has reported, or the bound has passed, the verdict is one entry:
 *     NODE_FAILED of the nodes removed, then {@link RoundEnd}, with the reports and calls deleted in the same multi.</li>
 * </ul>
 * A coordinator that takes over mid-round finds the round open in its own log and goes on from the reports in
 * ZooKeeper; its bound starts again at the takeover. Joins wait while a round is open; departures do not.
 */
final class RoundCoordinator implements CoordinatorTask {
    private final RoundContext ctx;
    private final Rounds rounds;
    private final TaskLog out;
    private final ZkStore store;
    private final ZkPaths paths;
    private final PersistentWatcher watch;

    /** Set by the watch on comm/ and by the tick. */
    private volatile boolean dirty = true;

    /** Restarts of a round's bound after reconnections, at most: a flapping connection must not hold joins forever. */
    private static final int MAX_BOUND_RESTARTS = 3;

    /**
     * The round this coordinator times: when it first saw it (System.nanoTime, for the metric), since when its bound
     * runs, the reconnections seen by then and how often they restarted the bound.
     */
    private UUID timed;
    private long seen;
    private long since;
    private long reconnections;
    private int restarts;

    RoundCoordinator(RoundContext ctx, Rounds rounds, TaskLog out, Runnable trigger) {
        this.ctx = ctx;
        this.rounds = rounds;
        this.out = out;
        this.store = ctx.store;
        this.paths = store.paths();

        // The coordinator's alone: a member's watches stay as they are.
        watch = new PersistentWatcher(store.client(), paths.comm, true);
        watch.getListenable().addListener(e -> {
            dirty = true;
            trigger.run();
        });
        watch.start();
    }

    @Override public boolean holdsJoins() {
        return rounds.open() != null;
    }

    @Override public void markDirty() {
        dirty = true;
    }

    @Override public void step(Map<UUID, ChildData> aliveNow) throws Exception {
        OpenRound r = rounds.open();

        if (r == null) {
            if (dirty) {
                dirty = false;
                openIfAsked();
            }

            return;
        }

        // A round new to this coordinator, or one a ZooKeeper outage cut: its bound starts now. After an outage the
        // reports that could not be written meanwhile are on their way; counted as missing, they would remove nodes
        // whose only fault was ZooKeeper's.
        if (!r.id.equals(timed)) {
            timed = r.id;
            seen = since = System.nanoTime();
            reconnections = rounds.reconnections();
            restarts = 0;
        }
        else if (rounds.reconnections() != reconnections && restarts < MAX_BOUND_RESTARTS) {
            since = System.nanoTime();
            reconnections = rounds.reconnections();
            restarts++;
        }

        boolean late = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) >= rounds.boundMs();

        if (!dirty && !late)
            return; // The tick comes every 2 s: the bound is kept to that.

        dirty = false;

        Map<UUID, ConnectivityReport> reports = reports(r);
        Topology top = ctx.topology.get();
        List<ClusterNode> missing = new ArrayList<>();

        for (ClusterNode n : r.nodes) {
            // A node gone from ZooKeeper fails anyway; the round does not wait for it.
            if (top.contains(n.id()) && aliveNow.containsKey(n.id()) && !reports.containsKey(n.id()))
                missing.add(n);
        }

        if (!missing.isEmpty() && !late)
            return;

        decide(r, reports, missing, aliveNow);
    }

    private void openIfAsked() throws Exception {
        // Round directories are left alone here: one of a round this node has not applied yet is still in use.
        List<String> asks = asks();

        if (asks.isEmpty())
            return;

        List<CuratorOp> ops = new ArrayList<>();

        for (String a : asks)
            ops.add(store.deleteOp(a));

        String off = Rounds.off(ctx.topology.get().nodes(), ctx.comm);

        if (off != null) {
            ctx.log.warning("Not opening the communication failure round " + asks.size() + " node(s) asked for: " + off);
            store.commit(ops);
            return;
        }

        UUID id = UUID.randomUUID();
        RoundStart start = new RoundStart(id);

        ops.add(store.client().transactionOp().create().forPath(paths.round(id)));
        out.append(Collections.singletonList(DiscoveryEvent.custom(0, out.topVer(), ctx.local.id(),
            ctx.objects.marshal(start))), ops, Collections.singletonMap(0L, start));

        ctx.metrics.onRoundStarted();
    }

    /** @return The paths of the calls for a round under comm/. */
    private List<String> asks() throws Exception {
        List<String> out = new ArrayList<>();

        for (String name : store.children(paths.comm)) {
            if (ZkPaths.isCommAsk(name))
                out.add(paths.comm + "/" + name);
        }

        return out;
    }

    private Map<UUID, ConnectivityReport> reports(OpenRound r) throws Exception {
        Map<UUID, ConnectivityReport> out = new HashMap<>();
        String dir = paths.round(r.id);

        for (String name : store.children(dir)) {
            String path = dir + "/" + name;

            try {
                byte[] data = store.read(path);

                if (data == null)
                    continue;

                ConnectivityReport rep = ctx.codec.decodeReport(data, path);

                if (rep.round.equals(r.id))
                    out.put(rep.node, rep);
            }
            catch (RuntimeException bad) {
                // Counted as no report: that node reaches nobody in this round.
                ctx.log.error("Ignoring an unreadable report in communication failure round " + r.id + ": " + bad.getMessage());
            }
        }

        return out;
    }

    private void decide(OpenRound r, Map<UUID, ConnectivityReport> reports, List<ClusterNode> missing,
        Map<UUID, ChildData> aliveNow) throws Exception {
        // Its verdict deleted it: logged by a coordinator before this one, and not yet applied here.
        if (!store.exists(paths.round(r.id)))
            return;

        long t0 = System.nanoTime();
        Topology top = ctx.topology.get();
        List<ClusterNode> current = new ArrayList<>(top.nodes());
        Connectivity conn = new Connectivity(r.nodes, reports);
        List<UUID> kill = new ArrayList<>();
        String why;
        String error = conn.error();

        if (error != null)
            why = "a node could not check its connections, so nothing is decided: " + error;
        else if (missing.isEmpty() && conn.full(current))
            why = "every node reaches every other";
        else {
            CommunicationFailureResolver resolver = ctx.comm == null ? null : ctx.comm.resolver();

            if (resolver == null)
                why = "no resolver is configured";
            else {
                ResolveContext rc = new ResolveContext(current, conn, ctx.comm);

                try {
                    resolver.resolve(rc);
                    kill = rc.killed();
                    why = "decided by " + resolver.getClass().getSimpleName()
                        + (missing.isEmpty() ? "" : ", " + missing.size() + " node(s) reporting nothing in time");
                }
                catch (RuntimeException e) {
                    ctx.log.error("The communication failure resolver failed; no node is removed", e);
                    why = "the resolver failed: " + e;
                }
            }
        }

        List<DiscoveryEvent> events = new ArrayList<>();
        List<CuratorOp> ops = new ArrayList<>();
        long topVer = out.topVer();
        RoundEnd end = new RoundEnd(r.id, kill, why);

        // The verdict first: a custom event of a sender no longer in the topology is skipped, and the coordinator may
        // be among those removed. It names them, so that the calls it releases know before the failures apply.
        events.add(DiscoveryEvent.custom(0, topVer, ctx.local.id(), ctx.objects.marshal(end)));

        long evtId = 0;

        for (UUID k : kill)
            events.add(DiscoveryEvent.failed(++evtId, ++topVer, k));

        for (String name : store.children(paths.round(r.id)))
            ops.add(store.deleteOp(paths.round(r.id) + "/" + name));

        ops.add(store.deleteOp(paths.round(r.id)));

        for (String a : asks()) // Calls made during the round: its verdict answers them.
            ops.add(store.deleteOp(a));

        out.append(events, ops, Collections.<Long, InternalMessage>singletonMap(0L, end));

        // As failNode does: a hung node that keeps its session finds its alive znode gone. After the commit, quietly:
        // one may have gone meanwhile. Not this node's own: it stops once it applies its failure.
        for (UUID k : kill) {
            if (!k.equals(ctx.local.id()))
                store.deleteQuietly(paths.alive(k));
        }

        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - seen);

        ctx.metrics.onRoundEnded(ms, kill.size());
        ctx.log.info("Communication failure round " + r.id + " decided after " + ms + " ms (the resolver took "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms): " + (kill.isEmpty() ? "no node removed"
            : "removed " + kill) + "; " + why + "; reached, by order: " + conn.describe(current));
    }

    @Override public void close() {
        try {
            watch.close();
        }
        catch (Exception ignored) {
            // Closing anyway.
        }
    }
}
