package io.zkion.discovery;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * No node skips history: the log is never trimmed past what a member has read, and a node that finds an entry it
 * never applied gone stops, naming it, instead of applying what follows.
 */
public class LogGapTest extends ZkIonTestSupport {
    /**
     * A member's alive znode holds what this release cannot decode (a newer release's record, say; here garbage a
     * foreign client wrote): its ack cannot be read, so nothing is trimmed until it can. Skipping the member trimmed
     * the entries it had not read yet.
     */
    @Test(timeout = 120_000) public void aMemberWhoseAckCannotBeReadHoldsTrimming() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<String> got1 = pings(s1);
        List<String> got2 = pings(s2);

        try (CuratorFramework zkc = client()) {
            List<String> sent;

            try (AutoCloseable held = spiOf(s2).engine().holdDiscoveryForTest()) {
                sent = sendPings(s1, got1, zkc, 3);

                zkc.setData().forPath(root + "/alive/" + s2.cluster().localNode().id(),
                    "not an alive record".getBytes(StandardCharsets.UTF_8));

                Thread.sleep(3_000); // The coordinator steps at least every 2 s, and at once on the change.

                List<String> now = zkc.getChildren().forPath(root + "/log");

                assertTrue("Entries s2 has not read are kept: " + sent + " in " + now, now.containsAll(sent));
            }

            // Released: s2 reads them and acks, which overwrites the garbage; then trimming goes on.
            await("s2 got every ping", 30_000, () -> got2.size() == 3);
            assertEquals(List.of("p0", "p1", "p2"), got2);
            await("trimmed once s2 acked", 30_000, () -> {
                List<String> now = children(zkc);

                return sent.stream().noneMatch(now::contains);
            });
        }
    }

    /**
     * Entries s2 has not read are there when its watch announces them, and one is gone when it reads (deleted here by
     * a foreign client while s2's discovery thread is held; in production, trimmed past a node that was failed out or
     * paused). s2 stops with a message naming the entry, and never delivers what follows it.
     */
    @Test(timeout = 120_000) public void aNodeThatMissedAnEntryStopsAndNamesIt() throws Exception {
        ErrorLog log2 = new ErrorLog();
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setGridLogger(log2));
        List<String> got1 = pings(s1);
        List<String> got2 = pings(s2);

        try (CuratorFramework zkc = client()) {
            List<String> sent = missAnEntry(s2, s1, got1, zkc);

            await("s2 names the entry it missed", 30_000, () -> log2.has("is missing", sent.get(1)));
            await("s2 is out", 30_000, () -> s1.cluster().nodes().size() == 1);

            assertEquals("s2 delivers nothing past the hole", List.of("p0"), got2);
        }
    }

    /**
     * As above, on a node whose Ignite listener is stuck and never returns from the segmentation (here held until the
     * test ends): the node must still be out of the cluster, or its alive znode and ack, left with its live session,
     * would hold every trim from then on.
     */
    @Test(timeout = 120_000) public void aSegmentedNodeWhoseListenerIsStuckIsOut() throws Exception {
        CountDownLatch end = new CountDownLatch(1);
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setDiscoverySpi(configured(new ZkIonDiscoverySpi() {
            @Override public void setListener(DiscoverySpiListener lsnr) {
                super.setListener(lsnr == null ? null : stuckOnSegmentation(lsnr, end));
            }
        })));
        List<String> got1 = pings(s1);

        try (CuratorFramework zkc = client()) {
            List<String> sent = missAnEntry(s2, s1, got1, zkc);

            await("s2 is out", 30_000, () -> s1.cluster().nodes().size() == 1);
        }
        finally {
            end.countDown();
        }
    }

    /** @return {@code lsnr}, but a segmentation blocks until {@code end}. */
    private static DiscoverySpiListener stuckOnSegmentation(DiscoverySpiListener lsnr, CountDownLatch end) {
        return new DiscoverySpiListener() {
            @Override public void onLocalNodeInitialized(org.apache.ignite.cluster.ClusterNode locNode) {
                lsnr.onLocalNodeInitialized(locNode);
            }

            @Override public org.apache.ignite.lang.IgniteFuture<?> onDiscovery(DiscoveryNotification n) {
                if (n.type() == org.apache.ignite.events.EventType.EVT_NODE_SEGMENTED) {
                    try {
                        end.await();
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }

                return lsnr.onDiscovery(n);
            }
        };
    }

    /**
     * As above, for a client that may reconnect, whose session and alive znode live on: its cluster was taken from
     * under it (refounded by a server while the client was behind, as in Ignite's reconnect tests). It names the
     * entry and rejoins with a fresh history, as a client the cluster dropped does, instead of stopping.
     */
    @Test(timeout = 120_000) public void aClientThatMissedAnEntryRejoins() throws Exception {
        ErrorLog logC = new ErrorLog();
        Ignite s1 = start("s1");
        Ignite c = start(config("c", true).setGridLogger(logC));
        java.util.UUID firstId = c.cluster().localNode().id();
        List<String> got1 = pings(s1);
        List<String> gotC = pings(c);

        try (CuratorFramework zkc = client()) {
            List<String> sent = missAnEntry(c, s1, got1, zkc);

            await("the client names the entry it missed", 30_000, () -> logC.has("is missing", sent.get(1)));
            await("the client is back under a new id", 60_000, () -> {
                try {
                    return s1.cluster().nodes().size() == 2 && !c.cluster().localNode().id().equals(firstId)
                        && c.cluster().nodes().size() == 2;
                }
                catch (org.apache.ignite.IgniteClientDisconnectedException reconnecting) {
                    return false;
                }
            });

            assertEquals("the client delivered nothing past the hole", List.of("p0"), gotC);
        }
    }

    /**
     * Sends three pings from {@code sender} while {@code behind}'s discovery thread is held, and deletes the second
     * one's entry before it is released, as a trim past a node that was failed out or paused would.
     *
     * @return The entries of the pings; the second is gone.
     */
    private List<String> missAnEntry(Ignite behind, Ignite sender, List<String> got, CuratorFramework zkc)
        throws Exception {
        try (AutoCloseable held = spiOf(behind).engine().holdDiscoveryForTest()) {
            List<String> sent = sendPings(sender, got, zkc, 3);

            zkc.delete().forPath(root + "/log/" + sent.get(1));

            return sent;
        }
    }

    /** @return The tags of the pings {@code n} delivers, in order. */
    private static List<String> pings(Ignite n) {
        List<String> got = new CopyOnWriteArrayList<>();

        ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.Ping.class,
            (topVer, snd, msg) -> got.add(msg.tag));

        return got;
    }

    /**
     * Sends {@code count} pings from {@code n}, one at a time.
     *
     * @return The name of each ping's log entry: the newest entry once {@code n} delivered it.
     */
    private List<String> sendPings(Ignite n, List<String> got, CuratorFramework zkc, int count) throws Exception {
        List<String> entries = new ArrayList<>();
        Set<String> known = new HashSet<>(zkc.getChildren().forPath(root + "/log"));

        for (int i = 0; i < count; i++) {
            int k = i + 1;

            ((IgniteEx)n).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));
            await("delivered p" + i, 10_000, () -> got.size() == k);

            List<String> added = new ArrayList<>(zkc.getChildren().forPath(root + "/log"));

            added.removeAll(known);
            added.sort((a, b) -> Long.compare(ZkPaths.sequence(a), ZkPaths.sequence(b)));
            assertFalse("an entry for p" + i, added.isEmpty());

            entries.add(added.get(added.size() - 1));
            known.addAll(added);
        }

        return entries;
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();
        c.blockUntilConnected();

        return c;
    }

    private List<String> children(CuratorFramework zkc) {
        try {
            return zkc.getChildren().forPath(root + "/log");
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
