package io.zkion.discovery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * A communication failure round cut by a ZooKeeper outage (issue 21): it goes on when ZooKeeper is back, and the
 * outage costs no node its place. The outage outlasts the round's bound. One node finishes its connection check
 * while ZooKeeper is out, so its report cannot be written then; it must be written once ZooKeeper is back. Another
 * finishes its check only after ZooKeeper is back; the coordinator must give it time then. Read as "reaches
 * nobody", either would be removed by Ignite's default resolver, though its only fault was ZooKeeper's.
 */
public class RoundThroughOutageTest extends MatrixTestSupport {
    /**
     * A longer session than the other tests': once ZooKeeper is back, a server whose reconnection lags another's by
     * half a session is segmented by the outage guard (a node cut off alone), and a loaded machine lagged 3 s. That
     * would remove a node for another reason than the round; this test is about the round.
     */
    private static final int SESSION = 15_000;

    @Override protected ZkIonDiscoverySpi spi() {
        return super.spi().setSessionTimeout(SESSION);
    }

    @Test(timeout = 180_000) public void aRoundCutByAnOutageEndsOnceZooKeeperIsBackAndRemovesNobody() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite[] all = {s1, s2, s3};

        CountDownLatch s3Done = new CountDownLatch(1);

        MatrixCommunicationSpi.release = new CountDownLatch(1);
        MatrixCommunicationSpi.RELEASE_OF.put("s3", s3Done);
        MatrixCommunicationSpi.HELD.add("s2");
        MatrixCommunicationSpi.HELD.add("s3");

        CompletableFuture<Throwable> call = resolve(s1, s2);

        await("the round open and s2, s3 checking", 60_000,
            () -> MatrixCommunicationSpi.CHECKING.contains("s2") && MatrixCommunicationSpi.CHECKING.contains("s3"));

        zk.stop();

        for (Ignite n : all)
            await(n.name() + " frozen", 10_000, () -> spiMBean(n).getZkOutage().startsWith("FROZEN"));

        // s2's check ends now: every node reaches every other, but its report cannot reach ZooKeeper.
        MatrixCommunicationSpi.release.countDown();

        // Past the round's bound (15 s plus the session timeout), counted from its start.
        Thread.sleep(15_000 + SESSION + 5_000);

        zk.restart();

        for (Ignite n : all)
            await(n.name() + " connected", 30_000, () -> spiMBean(n).getZkOutage().equals("CONNECTED"));

        // s3's check ends a while after ZooKeeper is back, well within a bound counted from then.
        Thread.sleep(3_000);
        s3Done.countDown();

        assertNull("the call returned, the peer staying", call.get(60, TimeUnit.SECONDS));
        awaitRoundOver();

        // The round was decided (the call may have given up waiting first), and removed nobody.
        await("the coordinator's verdict counted", 30_000,
            () -> metric(s1, "io.discovery.zkion", "LastCommunicationFailureRoundMs") > 0);
        assertEquals("rounds opened", 1L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        assertEquals("nodes removed", 0L, metric(s1, "io.discovery.zkion", "CommunicationFailureKills"));

        for (Ignite n : all)
            assertEquals(n.name() + "'s topology", 3, n.cluster().nodes().size());
    }

    /**
     * A failure reported while ZooKeeper is out starts no round then: no node checks its connections until ZooKeeper is
     * back (the call's ask waits under Curator's retries, and the round opens once ZooKeeper is back within them), and
     * the call ends (here every node reaches every other, so nobody is removed).
     */
    @Category(SlowTest.class) // With -Pslow: CI's budget; no coordinator can log a round while ZooKeeper is out.
    @Test(timeout = 180_000) public void noRoundStartsWhileZooKeeperIsOut() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite[] all = {s1, s2};

        zk.stop();

        for (Ignite n : all)
            await(n.name() + " frozen", 10_000, () -> spiMBean(n).getZkOutage().startsWith("FROZEN"));

        CompletableFuture<Throwable> call = resolve(s1, s2);

        // The wait for the peer to fail on its own (a session timeout and 1 s), and as long again for a round.
        Thread.sleep(2 * SESSION + 2_000);

        assertTrue("connections checked while ZooKeeper was out: " + MatrixCommunicationSpi.CHECKING,
            MatrixCommunicationSpi.CHECKING.isEmpty());

        zk.restart();

        assertNull("the call returned, the peer staying", call.get(60, TimeUnit.SECONDS));
        awaitRoundOver();

        for (Ignite n : all)
            assertEquals(n.name() + "'s topology", 2, n.cluster().nodes().size());
    }
}
