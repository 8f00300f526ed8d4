package io.zkion.discovery.chaos;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.ignite.Ignite;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.IgniteInternalFuture;
import org.apache.ignite.internal.processors.cache.GridCachePartitionExchangeManager;
import org.apache.ignite.internal.processors.cache.IgniteInternalCache;
import org.apache.ignite.internal.processors.cache.distributed.dht.topology.GridDhtPartitionTopology;

/**
 * Rewrites the node's status file every 300 ms (whole, by rename), for the controller to see when the cluster
 * has settled: {@code <time> <incarnation> <id> <order> <topVer> <servers> <clients> <replicated>}, the last true
 * only while no exchange is under way or waiting (on a server, every partition with its two owners too). A paused
 * node stops writing it, which is how a stale status shows.
 */
final class StatusWriter extends Thread {
    private final Ignite ignite;
    private final Path file;
    private final int incarnation;
    private final boolean client;

    StatusWriter(Ignite ignite, Path file, int incarnation, boolean client) {
        super("chaos-status");
        setDaemon(true);
        this.ignite = ignite;
        this.file = file;
        this.incarnation = incarnation;
        this.client = client;
    }

    @Override public void run() {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");

        while (true) {
            try {
                Files.write(tmp, status().getBytes(StandardCharsets.UTF_8));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Thread.sleep(300);
            }
            catch (InterruptedException e) {
                return;
            }
            catch (Exception e) {
                // A node stopping or reconnecting: the next round writes again; a stale status is what the controller sees.
                try {
                    Thread.sleep(300);
                }
                catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private String status() {
        ClusterNode local = ignite.cluster().localNode();
        int servers = ignite.cluster().forServers().nodes().size();
        int clients = ignite.cluster().forClients().nodes().size();

        return System.currentTimeMillis() + " " + incarnation + ' ' + local.id() + ' ' + local.order() + ' '
            + ignite.cluster().topologyVersion() + ' ' + servers + ' ' + clients + ' '
            + ((client || replicated()) && exchangesDone()) + '\n';
    }

    /**
     * @return Whether no exchange is under way or waiting here. A cache's create or destroy runs one at the same
     *      topology version: one held (by Ignite's orphaned transaction, say) would leave the cluster looking settled
     *      while every cache call and read waits.
     */
    private boolean exchangesDone() {
        GridCachePartitionExchangeManager<?, ?> exch = ((IgniteEx)ignite).context().cache().context().exchange();
        IgniteInternalFuture<?> last = exch.lastTopologyFuture();

        return last != null && last.isDone() && !exch.hasPendingExchange();
    }

    /** @return Whether every partition of the cache has its two owners and none is moving: a next loss loses nothing. */
    private boolean replicated() {
        IgniteInternalCache<Object, Object> cache = ((IgniteEx)ignite).cachex(NodeConfig.CACHE);

        if (cache == null)
            return false;

        GridDhtPartitionTopology top = cache.context().topology();

        if (top.hasMovingPartitions())
            return false;

        for (int p = 0; p < NodeConfig.PARTITIONS; p++) {
            if (top.owners(p).size() < 2)
                return false;
        }

        return true;
    }
}
