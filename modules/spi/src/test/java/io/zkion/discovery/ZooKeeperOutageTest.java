package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * ZooKeeper gone for three session timeouts under three servers and a client: a quorum outage as every node sees it.
 * Nobody is segmented or failed, the cache works meanwhile, a custom message sent meanwhile waits and is delivered
 * once after, and the SPI's bean and metrics tell the outage. (Separate JVMs and a real ensemble: the chaos module's
 * {@code ZooKeeperOutageTest}.)
 */
public class ZooKeeperOutageTest extends ZkIonTestSupport {
    @Test(timeout = 180_000) public void everyNodeHoldsItsPlaceWhileZooKeeperIsOut() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite c1 = startClient("c1");
        Ignite[] all = {s1, s2, s3, c1};
        List<String> got = CustomMessageTest.pingsAndAcks(s3);
        IgniteCache<Integer, Integer> cache = c1.getOrCreateCache(new CacheConfiguration<Integer, Integer>("c")
            .setBackups(1));
        long topVer = s1.cluster().topologyVersion();

        zk.stop();

        for (Ignite n : all)
            await(n.name() + " frozen", 10_000, () -> spiMBean(n).getZkOutage().startsWith("FROZEN"));

        // Sent while ZooKeeper is out: the send waits for it.
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try {
                ((IgniteEx)s2).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("meanwhile"));
            }
            catch (Exception e) {
                throw new RuntimeException(e);
            }
        });

        // Cache traffic goes on between the nodes, through Ignite's communication.
        for (int i = 0; i < 500; i++)
            cache.put(i, i);

        Thread.sleep(3 * SESSION_TIMEOUT);
        assertTrue("the message waited", !sent.isDone());
        // Ours, and any Ignite sends itself meanwhile (Ignite 2.18 does).
        assertTrue(spiMBean(s2).getZkOutage(), spiMBean(s2).getZkOutage().matches("FROZEN for \\d+ ms, [1-9]\\d* custom"
            + " message\\(s\\) held"));

        zk.restart();
        sent.get(60, TimeUnit.SECONDS);
        await("the message held through the outage on s3", 30_000, () -> got.contains("ping meanwhile"));

        for (Ignite n : all) {
            await(n.name() + " connected", 10_000, () -> spiMBean(n).getZkOutage().equals("CONNECTED"));
            assertEquals(n.name(), IgniteState.STARTED, Ignition.state(n.name()));
            assertEquals(n.name(), topVer, n.cluster().topologyVersion());
            assertEquals(n.name(), 4, n.cluster().nodes().size());
            assertEquals(n.name(), 0, spiOf(n).discoveryMetrics().sessionsLost());
            assertEquals(n.name(), 1, spiOf(n).discoveryMetrics().outages());
            assertTrue(n.name(), spiOf(n).discoveryMetrics().outageMillis() >= 3 * SESSION_TIMEOUT);
        }

        assertEquals("delivered once", 1, got.stream().filter("ping meanwhile"::equals).count());
        assertTrue(spiOf(s2).discoveryMetrics().messagesHeld() >= 1);

        for (int i = 0; i < 500; i++)
            assertEquals(Integer.valueOf(i), cache.get(i));

        // And discovery works on: a node joins after the outage.
        Ignite s4 = start("s4");

        await("s4 joined everywhere", 30_000, () -> s1.cluster().nodes().size() == 5);
        assertEquals(topVer + 1, s4.cluster().topologyVersion());
    }

    /**
     * A server stops as ZooKeeper goes out. Ignite stops its communication before its discovery, so it answers no
     * question any more; the other server, asking, must not read that silence as "ZooKeeper is up over there" and
     * segment itself. The stopping server says it leaves while it still can, and the other one freezes. (Without the
     * notice the other server segments at a sixth of the session timeout.)
     */
    @Test(timeout = 120_000) public void aServerStoppingAsZooKeeperGoesOutLeavesTheOtherFrozen() throws Exception {
        CountDownLatch inStop = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ZkIonDiscoverySpi holding = new ZkIonDiscoverySpi() {
            @Override public void spiStop() {
                inStop.countDown();

                try {
                    release.await(60, TimeUnit.SECONDS); // Held where a slow stop would be: in discovery's stop.
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }

                super.spiStop();
            }
        };

        start(config("s1", false).setDiscoverySpi(configured(holding)));
        Ignite s2 = start("s2");
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> Ignition.stop("s1", true));

        assertTrue("s1 reached its discovery's stop", inStop.await(30, TimeUnit.SECONDS));
        zk.stop();

        await("s2 frozen", 10_000, () -> spiMBean(s2).getZkOutage().startsWith("FROZEN"));
        Thread.sleep(SESSION_TIMEOUT); // Well past the sixth of the timeout at which a node cut off alone segments.
        assertEquals(IgniteState.STARTED, Ignition.state("s2"));
        assertTrue(spiMBean(s2).getZkOutage(), spiMBean(s2).getZkOutage().startsWith("FROZEN"));

        zk.restart();
        release.countDown();
        stopped.get(60, TimeUnit.SECONDS);

        await("s1 left s2's topology", 30_000, () -> s2.cluster().nodes().size() == 1);
        assertEquals(IgniteState.STARTED, Ignition.state("s2"));
        assertEquals(0, spiOf(s2).discoveryMetrics().sessionsLost());
    }
}
