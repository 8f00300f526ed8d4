package io.zkion.discovery;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.zkion.discovery.tools.CliRun;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.apache.ignite.events.EventType;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * What one call to {@code resolveCommunicationFailure} does (issue 21), and the bounds of a round: a peer gone or
 * failing on its own gives no round, calls together share one, a node silent past the round's bound reaches nobody,
 * and a coordinator that crashes mid-round leaves the round to its successor, which removes nobody twice.
 */
public class RoundCallTest extends MatrixTestSupport {
    /** The resolver every node gets; null for Ignite's default. */
    private static volatile CommunicationFailureResolver custom;

    @Before public void noCustomResolver() {
        custom = null;
    }

    @After public void releaseChecks() {
        MatrixCommunicationSpi.release.countDown();
        MatrixCommunicationSpi.RELEASE_OF.values().forEach(CountDownLatch::countDown);
    }

    @Override protected CommunicationFailureResolver resolver() {
        return custom;
    }

    @Test(timeout = 120_000) public void aPeerAlreadyGoneThrowsAtOnceWithNoRound() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        ClusterNode p2 = s2.cluster().localNode();

        Ignition.stop(s2.name(), true);
        await("s1 alone", 30_000, () -> s1.cluster().nodes().size() == 1);

        long t0 = System.nanoTime();

        assertPeerFailed(resolve(s1, p2).get(30, TimeUnit.SECONDS), p2.id());
        assertTrue("it threw without the wait for the peer to fail",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < SESSION_TIMEOUT);
        assertNoRound(s1);
    }

    @Test(timeout = 120_000) public void aPeerThatFailsOnItsOwnDuringTheWaitGivesNoRound() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        ClusterNode p2 = s2.cluster().localNode();
        CompletableFuture<Throwable> call = resolve(s1, p2);

        Thread.sleep(1_000); // The call waits up to the session timeout plus 1 s for the peer to fail.
        spiOf(s2).simulateNodeFailure(); // Its session ends: the cluster fails it within that wait.

        assertPeerFailed(call.get(30, TimeUnit.SECONDS), p2.id());
        assertNoRound(s1);
    }

    /** Two calls on different peers, the round held open by one node's check: one round takes both. */
    @Test(timeout = 120_000) public void callsTogetherShareOneRound() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");

        MatrixCommunicationSpi.release = new CountDownLatch(1);
        MatrixCommunicationSpi.HELD.add("s3");

        long t0 = System.currentTimeMillis();
        CompletableFuture<Throwable> a = resolve(s1, s2);
        CompletableFuture<Throwable> b = resolve(s2, s3);

        await("s3 checks: a round is open", 30_000, () -> MatrixCommunicationSpi.CHECKING.contains("s3"));

        // Both calls past their wait for the peer (the session timeout plus 1 s): each asked, or waits on the round.
        Thread.sleep(Math.max(0, t0 + SESSION_TIMEOUT + 3_000 - System.currentTimeMillis()));
        MatrixCommunicationSpi.release.countDown();

        assertNull(a.get(60, TimeUnit.SECONDS));
        assertNull(b.get(60, TimeUnit.SECONDS));
        awaitRoundOver();
        assertEquals("one round for both calls", 1L, metric(s1, "io.discovery.zkion", "CommunicationFailureRounds"));
        assertEquals(3, s1.cluster().nodes().size());
    }

    /**
     * A node whose check never answers: the round waits for it until its bound (15 s plus the session timeout), then
     * counts it as reaching nobody, and Ignite's default resolver removes it. Meanwhile zkion-cli shows the round open
     * with two reports of three; afterwards the coordinator's INFO line names the removed node and its missing report.
     */
    @Test(timeout = 180_000) public void aNodeSilentPastTheRoundsBoundReachesNobody() throws Exception {
        ErrorLog log1 = new ErrorLog(true);
        Ignite s1 = start(config("s1", false).setGridLogger(log1));
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        UUID id3 = s3.cluster().localNode().id();

        MatrixCommunicationSpi.HELD.add("s3");
        MatrixCommunicationSpi.RELEASE_OF.put("s3", new CountDownLatch(1)); // Released after the test only.

        CompletableFuture<Throwable> call = resolve(s1, s3);

        await("the round open with 2 of 3 reports, as zkion-cli shows it", 30_000,
            () -> status().contains("2 of 3 nodes reported"));
        assertTrue("s3 stays while the bound runs", s1.cluster().node(id3) != null);

        assertPeerFailed(call.get(90, TimeUnit.SECONDS), id3);
        await("s3 stopped", 30_000, () -> !running(s3));

        String verdict = log1.messages.stream().filter(m -> m.startsWith("Communication failure round")
            && m.contains("decided after")).findFirst().orElse("none");
        Matcher ms = Pattern.compile("decided after (\\d+) ms").matcher(verdict);

        assertTrue(verdict, verdict.contains("removed [" + id3 + "]") && verdict.contains("3 -> no report"));
        assertTrue(verdict, ms.find());
        System.out.println("The silent node's round: " + verdict); // For the record: the time the bound held it.
        assertTrue("not decided before the bound: " + verdict, Long.parseLong(ms.group(1)) >= 15_000 + SESSION_TIMEOUT);

        awaitRoundOver();
        assertEquals(3, start("s4").cluster().nodes().size());
    }

    /**
     * The coordinator's session ends (as with kill -9) while a round waits for a report: the next coordinator finds the
     * round open in its log, decides it, and removes the resolver's node once; nobody fails twice.
     */
    @Test(timeout = 180_000) public void aRoundEndsWhenItsCoordinatorCrashes() throws Exception {
        custom = ctx -> ctx.topologySnapshot().stream().filter(n -> n.order() == 3).forEach(ctx::killNode);

        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        UUID id3 = s3.cluster().localNode().id();
        List<Long> failed = new CopyOnWriteArrayList<>();

        s2.events().localListen(e -> failed.add(((org.apache.ignite.events.DiscoveryEvent)e).eventNode().order()) || true,
            EventType.EVT_NODE_FAILED);

        MatrixCommunicationSpi.release = new CountDownLatch(1);
        MatrixCommunicationSpi.HELD.add("s2");
        MatrixCommunicationSpi.cut("s2", "s3");

        CompletableFuture<Throwable> call = resolve(s2, s3);

        await("s2 checks: a round is open", 30_000, () -> MatrixCommunicationSpi.CHECKING.contains("s2"));
        spiOf(s1).simulateNodeFailure();
        MatrixCommunicationSpi.release.countDown();

        assertPeerFailed(call.get(90, TimeUnit.SECONDS), id3);
        await("s2 alone", 30_000, () -> s2.cluster().nodes().size() == 1);

        Ignition.stop(s1.name(), true); // A crashed node: what is left of it goes.

        assertEquals("each failed once: " + failed, 2, failed.size());
        assertTrue("s1 and s3 failed: " + failed, failed.contains(1L) && failed.contains(3L));
        awaitRoundOver();
        assertEquals(2, start("s4").cluster().nodes().size());
    }

    private void assertNoRound(Ignite n) {
        assertFalse("no connection check ran", MatrixCommunicationSpi.CHECKING.contains(n.name()));
        assertEquals(0L, metric(n, "io.discovery.zkion", "CommunicationFailureRounds"));
    }

    /** @return What {@code zkion-cli status} prints for this test's cluster. */
    private String status() {
        return CliRun.of("status", "--zk", zk.getConnectString(), "--root", root).out;
    }
}
