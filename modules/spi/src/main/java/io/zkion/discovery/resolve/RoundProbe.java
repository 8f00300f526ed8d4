package io.zkion.discovery.resolve;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * This node's report that ZooKeeper has not taken yet: a write that failed for the connection (an outage outlasts
     * Curator's retries) is written again once the connection is back ({@link #rewrite}).
     */
    private final AtomicReference<Report> unwritten = new AtomicReference<>();

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
        Report w = new Report(r.id, ctx.store.paths().report(r.id, ctx.local.id()), ctx.codec.encode(rep));

        if (error != null)
            ctx.log.warning("Communication failure round " + r.id + ": " + error);

        unwritten.set(w);
        write(w);
    }

    /** ZooKeeper is back: writes this node's report in round {@code r} again if its write had failed. */
    void rewrite(OpenRound r) {
        Report w = unwritten.get();

        if (w != null && w.round.equals(r.id)) {
            ctx.log.info("Writing this node's report in communication failure round " + r.id + " again: ZooKeeper"
                + " is back");
            write(w);
        }
    }

    private void write(Report w) {
        try {
            // Not creating the round's directory: gone, the round is over, and a report would outlive it.
            ctx.store.client().create().inBackground((c, e) -> {
                int rc = e.getResultCode();

                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NODEEXISTS.intValue()
                    || rc == KeeperException.Code.NONODE.intValue())
                    unwritten.compareAndSet(w, null);
                else
                    ctx.log.warning("Failed to write this node's report in communication failure round " + w.round
                        + " (ZooKeeper result " + rc + "): written again after the next reconnection");
            }).forPath(w.path, w.bytes);
        }
        catch (Exception e) {
            ctx.log.warning("Failed to write this node's report in communication failure round " + w.round + ": " + e);
        }
    }

    /** A report as written to ZooKeeper. */
    private static final class Report {
        final UUID round;
        final String path;
        final byte[] bytes;

        Report(UUID round, String path, byte[] bytes) {
            this.round = round;
            this.path = path;
            this.bytes = bytes;
        }
    }
}
