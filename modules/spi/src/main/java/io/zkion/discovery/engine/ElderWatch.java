package io.zkion.discovery.engine;

import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.apache.zookeeper.Watcher;

/**
 * What a node that does not coordinate watches in place of alive/: one alive znode, its elder's. A server's elder
 * is the nearest older server still alive; a client's is a server alive, picked by the pair of their ids. A server
 * with no elder is the oldest server alive, and so takes the coordinator's role; a client with none has no cluster
 * left.
 * <p>
 * Listing alive/ on every change would cost each node N names per join or failure, N² over the cluster; this costs
 * one notification and one read when the elder goes, and the walk past the dead ones. Not when the elder acks: the
 * watch is on the znode's children, which an ephemeral znode never has, so its data can change unheard.
 * Only the coordinator needs every node's alive znode, and lists them.
 */
final class ElderWatch {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ZkIonClusterNode local;

    /** Set when the watched znode changed or went, or anything may have been missed: the next cycle walks again. */
    private volatile boolean dirty = true;

    /** The elder as last found; null before the first walk, or when none was alive. */
    private UUID elder;

    /** One watcher object: ZooKeeper keeps it once per path however often the walk sets it again. */
    private final Watcher watcher;

    ElderWatch(EngineContext ctx, DiscoveryLoop loop) {
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.local = ctx.local();
        this.watcher = e -> {
            if (e.getType() != Watcher.Event.EventType.None) {
                dirty = true;
                loop.trigger();
            }
        };
    }

    /** Makes the next call walk again: a reconnection, or a cycle that failed, may have missed a notification. */
    void markDirty() {
        dirty = true;
    }

    /**
     * @return The elder in {@code top}, alive and watched; null if no such server is alive.
     */
    UUID elder(Topology top) throws Exception {
        UUID last = elder != null && top.contains(elder) ? elder : null;

        if (!dirty && last != null)
            return last;

        dirty = false; // Cleared before the reads: a change meanwhile fires the watch set by them, and sets it again.
        elder = null; // Until a watch is set: a read that fails leaves the next call to walk.

        // No older server can have come alive meanwhile (a node joins younger than every member), so a server's elder
        // still alive is still the nearest: after a reconnection, say. A client keeps its pick while it lives, though
        // servers that joined since would change it: moving would leave a watch behind on the old one. The walk past
        // the dead, O(N), waits for its going.
        if (last != null && store.watchUntilGone(paths.alive(last), watcher))
            return elder = last;

        for (ZkIonClusterNode n : candidates(top)) {
            if (store.watchUntilGone(paths.alive(n.id()), watcher)) {
                elder = n.id();
                break;
            }
        }

        return elder;
    }

    /** @return The servers this node may defer to, in the order to try them. */
    private List<ZkIonClusterNode> candidates(Topology top) {
        List<ZkIonClusterNode> out = new ArrayList<>();

        for (ZkIonClusterNode n : top.members()) { // Oldest first.
            // A client may defer to any server: it stays with the cluster as long as one is alive.
            if (!local.isClient() && n.id().equals(local.id()))
                break;

            if (!n.isClient() && !n.id().equals(local.id()))
                out.add(n);
        }

        if (local.isClient())
            return clientOrder(local.id(), out, ZkIonClusterNode::id);

        Collections.reverse(out); // A server's is the nearest older: not every node watches the oldest.

        return out;
    }

    /**
     * Spreads the clients over the servers: each client tries the servers in the order of a score of the pair of ids
     * (rendezvous hashing). A server's failure then wakes its share of the clients, not all of them: when every client
     * watched the oldest server, the coordinator's failure woke every client as its successor took over (docs/
     * benchmarks.md, "The coordinator's kill with 900 clients"). And a dead server's clients spread over all the
     * servers left: with the servers' list turned by the client's id, as before, they all moved on to the next server,
     * and after a rolling restart of 100 servers one of them held 81 of 900 clients. A client keeps its server while
     * it lives, so servers that join later are watched only by clients that walk after they joined.
     *
     * @return {@code servers} in the order this client tries them; the same whatever order they are listed in.
     */
    static <T> List<T> clientOrder(UUID client, List<T> servers, Function<T, UUID> idOf) {
        int n = servers.size();
        UUID[] ids = new UUID[n];
        long[] score = new long[n];
        Integer[] idx = new Integer[n];

        for (int i = 0; i < n; i++) {
            ids[i] = idOf.apply(servers.get(i));
            score[i] = score(client, ids[i]);
            idx[i] = i;
        }

        // Highest score first; a tie (2^-64 a pair) goes by id, so that the order never follows the list's.
        Arrays.sort(idx, (a, b) -> score[a] != score[b] ? Long.compare(score[b], score[a]) : ids[a].compareTo(ids[b]));

        List<T> out = new ArrayList<>(n);

        for (Integer i : idx)
            out.add(servers.get(i));

        return out;
    }

    /** @return A well-mixed 64-bit score of the pair: any bit of either id moves every bit of it. */
    static long score(UUID client, UUID server) {
        long h = mix(client.getMostSignificantBits() ^ mix(client.getLeastSignificantBits()));

        h = mix(h ^ server.getMostSignificantBits());

        return mix(h ^ server.getLeastSignificantBits());
    }

    /** The finalizer of SplitMix64, a bijection: different inputs give different outputs. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;

        return z ^ (z >>> 31);
    }
}
