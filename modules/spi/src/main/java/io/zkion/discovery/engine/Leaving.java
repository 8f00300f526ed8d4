package io.zkion.discovery.engine;

import io.zkion.discovery.internal.NodeThreads;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.IgniteLogger;
import org.apache.zookeeper.KeeperException;

/**
 * A stop's work in ZooKeeper: this node's left/ marker, or, from the last node out, the whole cluster; from a start
 * that gives up, its join request.
 */
final class Leaving {
    /** How long a stopping node waits for ZooKeeper to take its left/ marker. */
    private static final long LEAVE_MARK_WAIT_MS = 3_000;

    private final ZkStore store;
    private final ZkPaths paths;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final String instance;

    Leaving(EngineContext ctx) {
        this.instance = ctx.host().igniteInstanceName();
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.local = ctx.local();
        this.log = ctx.log();
    }

    /** Writes this node's left/ marker, waiting a bounded time: a stop must not hang on an unreachable ZooKeeper. */
    boolean markLeaving() {
        CompletableFuture<Integer> rc = new CompletableFuture<>();

        try {
            store.client().create().inBackground((c, e) -> rc.complete(e.getResultCode())).forPath(paths.left(local.id()));

            int code = rc.get(LEAVE_MARK_WAIT_MS, TimeUnit.MILLISECONDS);

            if (code == KeeperException.Code.OK.intValue() || code == KeeperException.Code.NODEEXISTS.intValue())
                return true;

            log.warning("Failed to mark this node as leaving (ZooKeeper result " + code + "); the others will see it fail");
        }
        catch (TimeoutException e) {
            log.warning("ZooKeeper did not take this node's leaving mark within " + LEAVE_MARK_WAIT_MS
                + " ms; the others will see it fail");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warning("Interrupted while marking this node as leaving; the others will see it fail");
        }
        catch (Exception e) {
            log.warning("Failed to mark this node as leaving; the others will see it fail: " + e);
        }

        return false;
    }

    /**
     * Takes back the join request of a start that gives up, so that ZooKeeper keeps nothing of it: the request, the
     * alive znode and the node's data znode, in one multi that holds only while the alive znode is as the request
     * wrote it (version 0). A coordinator that took the join in has set it: the data znode is then the cluster's,
     * members read the node from it, and the session's end fails the node. Bounded like the leaving mark.
     */
    void withdrawJoin() {
        CompletableFuture<Void> done = CompletableFuture.runAsync(this::withdraw,
            r -> NodeThreads.daemon(r, "zkion-withdraw-join", instance).start());

        try {
            done.get(LEAVE_MARK_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Exception e) {
            log.warning("Failed to take back this node's join request; its session's end removes the request, and a"
                + " coordinator the data znode " + paths.node(local.id()) + ": " + e);
        }
    }

    private void withdraw() {
        UUID id = local.id();

        try {
            if (!store.ownEphemeral(paths.alive(id)))
                return; // No request of this session: nothing was written, or the session took it.

            List<CuratorOp> ops = new ArrayList<>();

            ops.add(store.client().transactionOp().delete().withVersion(0).forPath(paths.alive(id)));

            if (store.exists(paths.join(id)))
                ops.add(store.deleteOp(paths.join(id)));

            byte[] data = store.rawData(paths.node(id));

            if (data != null)
                ops.addAll(store.deleteOps(paths.node(id), data));

            store.commit(ops);
            log.info("Took back this node's join request [node=" + id + ']');
        }
        catch (KeeperException.BadVersionException | KeeperException.NoNodeException taken) {
            // A coordinator took the join in (or the session ended meanwhile): the request is the cluster's now.
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The last node out takes the cluster's persistent nodes with it. A node joining meanwhile keeps its request,
     * its data znode and their parts: it founds the next cluster or joins one.
     */
    void removeCluster() {
        Set<String> joiningParts = new HashSet<>();

        try {
            for (String name : store.children(paths.join)) {
                joiningParts.addAll(store.leftovers().partsOf(paths.join + "/" + name));
                joiningParts.addAll(store.leftovers().partsOf(paths.nodes + "/" + name));
            }
        }
        catch (Exception e) {
            log.warning("Failed to list the joining nodes' parts; leaving " + paths.parts + " as it is: " + e);
            joiningParts = null;
        }

        for (String dir : paths.clusterOwned())
            clean(dir, () -> store.children(dir), null);

        clean(paths.nodes, store.leftovers()::dataZnodesNotJoining, null);

        if (joiningParts != null)
            clean(paths.parts, () -> store.children(paths.parts), joiningParts);

        try {
            for (String name : store.children(paths.comm)) // A round cut short: its reports under r-<id>.
                store.client().delete().deletingChildrenIfNeeded().forPath(paths.comm + "/" + name);
        }
        catch (Exception e) {
            log.warning("Failed to clean " + paths.comm + ": " + e);
        }

        store.deleteQuietly(paths.state);

        // Empty now: gone, they take ZooKeeper's sequence counters with them; every node creates them at start.
        for (String dir : paths.sequential())
            store.deleteQuietly(dir);
    }

    /** Removes the children {@code names} lists under {@code dir}, but those in {@code keep}. */
    private void clean(String dir, Callable<List<String>> names, Set<String> keep) {
        try {
            for (String name : names.call()) {
                String path = dir + "/" + name;

                if (keep == null || !keep.contains(path))
                    store.deleteQuietly(path);
            }
        }
        catch (Exception e) {
            log.warning("Failed to clean " + dir + ": " + e);
        }
    }
}
