package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import io.zkion.discovery.codec.msg.ConnectivityReport;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.zookeeper.KeeperException;

/**
 * Checks, for a round the log opened, which of its nodes this node reaches through Ignite's communication, and writes
 * that as its report. Ignite's check starts its connections without blocking; its answer, which may take up to the
 * failure detection timeout, is written from the thread that completes it, never waited for on the discovery thread.
 */
final class RoundProbe {
    private final RoundContext ctx;

    RoundProbe(RoundContext ctx) {
        this.ctx = ctx;
    }

    void check(OpenRound r) {
        IgniteFuture<BitSet> f;

        try {
            f = ctx.comm == null ? null : ctx.comm.checkConnection(r.nodes);
        }
        catch (RuntimeException e) {
            report(r, null, "the connection check failed: " + e);
            return;
        }

        if (f == null) {
            report(r, null, "this node's communication SPI cannot check connections");
            return;
        }

        f.listen(done -> {
            BitSet bits;

            try {
                bits = done.get();
            }
            catch (RuntimeException e) {
                report(r, null, "the connection check failed: " + e);
                return;
            }

            report(r, bits, null);
        });
    }

    private void report(OpenRound r, BitSet bits, String error) {
        List<UUID> reached = new ArrayList<>();

        reached.add(ctx.local.id());

        for (int i = 0; bits != null && i < r.nodes.size(); i++) {
            ClusterNode n = r.nodes.get(i);

            if (bits.get(i) && !n.id().equals(ctx.local.id()))
                reached.add(n.id());
        }

        ConnectivityReport rep = new ConnectivityReport(r.id, ctx.local.id(), reached, error);
        String path = ctx.store.paths().report(r.id, ctx.local.id());

        if (error != null)
            ctx.log.warning("Communication failure round " + r.id + ": " + error);

        try {
            // Not creating the round's directory: gone, the round is over, and a report would outlive it.
            ctx.store.client().create().inBackground((c, e) -> {
                int rc = e.getResultCode();

                if (rc != KeeperException.Code.OK.intValue() && rc != KeeperException.Code.NODEEXISTS.intValue()
                    && rc != KeeperException.Code.NONODE.intValue())
                    ctx.log.warning("Failed to write this node's report in communication failure round " + r.id
                        + " (ZooKeeper result " + rc + "): the coordinator decides without it after its bound");
            }).forPath(path, ctx.codec.encode(rep));
        }
        catch (Exception e) {
            ctx.log.warning("Failed to write this node's report in communication failure round " + r.id + ": " + e);
        }
    }
}
