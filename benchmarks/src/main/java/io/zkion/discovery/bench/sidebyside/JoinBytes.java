package io.zkion.discovery.bench.sidebyside;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.curator.test.TestingServer;

/**
 * Where the bytes that a join storm writes to ZooKeeper go, by znode directory, for ZkIon and the stock SPI: the
 * side-by-side run gives one total per join (issue 23's "bytes sent to ZooKeeper per join"); this says which
 * directories make it up. It starts {@code count} servers together on a ZooKeeper server of its own, as the side-by-side
 * storm does (after one unmeasured storm under another root), then reads that server's transaction log between two
 * marker znodes ({@link TxnLogTally}). The nodes reach ZooKeeper through a {@link RequestTally}, which sums what they
 * sent by request, reads and paths included, during the storm, then for caches created one after another, then for
 * mutable no-op custom messages.
 * <p>
 * {@code java ... JoinBytes OUT.md [count]}
 */
public final class JoinBytes {
    /** Caches created one after another after the storm: 20 filled the nodes' small data regions at times. */
    private static final int CACHES = 10;

    /**
     * Mutable no-op messages sent one after another by the youngest node: what a starting node's metastorage messages
     * cost, the baseline for writing a mutable message once (docs/design.md, "Next").
     */
    private static final int MUTABLE = 20;

    /**
     * Counted past the last mutable message's delivery: both SPIs ack and trim lazily (ZkIon once the log stood still
     * for 3 s), and a message's cost includes them. Session pings of those seconds are counted too, for both.
     */
    private static final long SETTLE_MS = 6_000;

    private JoinBytes() {
    }

    public static void main(String[] args) {
        try {
            Path out = Paths.get(args.length > 0 ? args[0] : "benchmarks/results/join-bytes.md");
            int count = args.length > 1 ? Integer.parseInt(args[1]) : 3;

            System.setProperty("IGNITE_QUIET", "true");
            System.setProperty("IGNITE_UPDATE_NOTIFIER", "false");

            StringBuilder md = new StringBuilder("# Bytes written to ZooKeeper by a join storm, by directory\n\n")
                .append(count).append(" servers started together on a ZooKeeper server of their own; every create and")
                .append(" setData in its transaction log between two markers, with a multi's operations counted one by")
                .append(" one. Bytes are the data written, path not included, per join (divided by ").append(count)
                .append("). Then what the clients sent, by request and directory: everything ZooKeeper received, reads,")
                .append(" paths and ACLs included, as the side-by-side run's bytes per join count it (the nodes reach")
                .append(" ZooKeeper through a counting proxy here). Written by `JoinBytes`.\n\n");

            for (SpiKind kind : new SpiKind[] {SpiKind.ZKION, SpiKind.STOCK_ZK})
                md.append(tally(kind, count)).append('\n');

            Files.write(out, md.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            System.out.println(md);
            System.exit(0); // Stock SPI and ZooKeeper threads may linger.
        }
        catch (Throwable e) {
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static String tally(SpiKind kind, int count) throws Exception {
        File dir = Files.createTempDirectory("join-bytes-" + kind).toFile();
        String root = "/join-bytes";

        try (TestingServer zk = new TestingServer(-1, dir, true);
             RequestTally requests = new RequestTally(zk.getPort(), root)) {
            // Unmeasured, as in the side-by-side run: a cold JVM joins slower, and batches joins differently.
            try (BenchCluster warm = new BenchCluster(kind, zk.getConnectString(), "/join-bytes-warm-up")) {
                warm.startTogether(count);
            }

            StringBuilder md = new StringBuilder();

            try (BenchCluster c = new BenchCluster(kind, requests.connectString(), root)) {
                long from = TxnLogTally.marker(zk.getConnectString());

                requests.counting = true;
                c.startTogether(count);
                requests.counting = false;

                long to = TxnLogTally.marker(zk.getConnectString());

                // Read while the server runs: closing it deletes its directory.
                md.append(TxnLogTally.read(zk, from, to, root).markdown(kind.name(), count))
                    .append('\n').append(requests.markdown("What the clients sent during the storm, by request",
                        "join", count));

                org.apache.ignite.Ignite youngest = c.youngest();

                youngest.getOrCreateCache("join-bytes-warm-up");
                youngest.destroyCache("join-bytes-warm-up");
                requests.reset();
                requests.counting = true;

                for (int i = 0; i < CACHES; i++)
                    youngest.createCache("join-bytes-cache-" + i);

                requests.counting = false;
                md.append('\n').append(requests.markdown("What the clients sent for " + CACHES + " caches created one"
                    + " after another by the youngest node, by request (pings included)", "cache create", CACHES));

                Scenarios.customRoundTrip(c.nodes(), 5, true); // Warm up.
                Thread.sleep(SETTLE_MS);
                requests.reset();
                requests.counting = true;
                Scenarios.customRoundTrip(c.nodes(), MUTABLE, true);
                Thread.sleep(SETTLE_MS);
                requests.counting = false;
                md.append('\n').append(requests.markdown("What the clients sent for " + MUTABLE + " mutable no-op"
                    + " custom messages sent one after another by the youngest node, and for " + SETTLE_MS / 1000
                    + " s after the last (acks and trims; pings included)", "mutable message", MUTABLE));
            }

            return md.toString();
        }
    }
}
