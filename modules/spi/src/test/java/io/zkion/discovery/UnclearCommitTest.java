package io.zkion.discovery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import io.zkion.discovery.CustomMessageTest.Mutable;
import io.zkion.discovery.engine.NodeEngine;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * The coordinator hands a mutable message to Ignite before the commit that logs it. When that commit's outcome is
 * unclear, the message must still be delivered once on every node, and its ack built from the copy the coordinator's
 * listener changed: whether the commit landed and only its reply was lost (Curator's replay then fails on the
 * state's version), or it never reached ZooKeeper and the request is processed again. Either way it is logged before
 * anything the coordinator takes after it, a join included.
 */
public class UnclearCommitTest extends ZkIonTestSupport {
    /** Faults apply from here on. */
    private final AtomicBoolean armed = new AtomicBoolean();

    @Test(timeout = 120_000) public void aMutableMessageWhoseCommitReplyWasLostIsDeliveredOnce() throws Exception {
        AtomicInteger lost = new AtomicInteger();
        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setZkFaultsForTest(
            ops -> armed.get() && logsQueuedMessage(ops) && lost.getAndIncrement() == 0)));

        checkMutableDeliveredOnce(s1, lost);
    }

    @Test(timeout = 120_000) public void aMutableMessageWhoseCommitFailedIsLoggedAsDeliveredBefore() throws Exception {
        AtomicInteger failed = new AtomicInteger();
        Ignite s1 = start(failingFirstLoggingOfAQueuedMessage(failed, false));

        checkMutableDeliveredOnce(s1, failed);
    }

    @Test(timeout = 120_000) public void aMessageDeliveredBeforeAFailedCommitStaysBeforeAJoin() throws Exception {
        AtomicReference<CompletableFuture<Ignite>> s3 = new AtomicReference<>();

        // A join asked for while the commit fails: the message is logged first, at the topology it was delivered at.
        List<Long> seenAt = deliveredAroundAFailedCommit(List.of(), false, c -> {
            s3.set(CompletableFuture.supplyAsync(() -> start("s3")));
            await("s3's join request", 30_000, () -> !childrenOf(c, root + "/join").isEmpty());
        });

        s3.get().get(60, TimeUnit.SECONDS);
        assertEquals(List.of(2L), seenAt);
    }

    @Test(timeout = 120_000) public void aMessageDeliveredBeforeAFailedCommitStaysBeforeAFailure() throws Exception {
        // A node whose session ends while the commit fails: its NODE_FAILED comes after the message.
        assertEquals(List.of(3L), deliveredAroundAFailedCommit(List.of("s3"), false, this::expireS3));
    }

    /**
     * A commit refused as fenced: the coordinator resigns, and takes the role again at once, being still the oldest. Its
     * new term must still log the message before the failure it finds, although its queue starts clear.
     */
    @Test(timeout = 120_000) public void aMessageDeliveredBeforeAFencedCommitStaysBeforeAFailure() throws Exception {
        assertEquals(List.of(3L), deliveredAroundAFailedCommit(List.of("s3"), true, this::expireS3));
    }

    /** Ends the third server's session, and returns once its alive znode is gone. */
    private void expireS3(CuratorFramework c) throws Exception {
        spiOf(nodes.get(2)).engine().expireSessionOnServerForTest();
        await("s3's alive znode gone", 30_000, () -> childrenOf(c, root + "/alive").size() == 2);
    }

    @After public void restoreTick() {
        NodeEngine.coordinatorTickForTest(0);
    }

    /** What happens while the coordinator's Ignite holds the test's message: returns once ZooKeeper shows it. */
    private interface Meanwhile {
        void run(CuratorFramework c) throws Exception;
    }

    /**
     * Starts a coordinator whose commit of the test's mutable message fails once, after its Ignite got the message
     * and held it while {@code meanwhile} ran, and a second server that sends it.
     *
     * @param more More servers, started after those two.
     * @param fenced Whether ZooKeeper refuses the commit as fenced; if not, it fails as with a lost connection.
     * @return The topology versions the second server got the message at.
     */
    private List<Long> deliveredAroundAFailedCommit(List<String> more, boolean fenced, Meanwhile meanwhile)
        throws Exception {
        // The tick lists the queue again, whatever its watch said: kept off, or it would hide the order this checks.
        NodeEngine.coordinatorTickForTest(600_000);

        AtomicInteger failed = new AtomicInteger();
        Ignite s1 = start(failingFirstLoggingOfAQueuedMessage(failed, fenced));
        Ignite s2 = start("s2");

        for (String name : more)
            start(name);

        List<Long> seenAt = topVersOf(s2);
        CountDownLatch happened = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);

        ((IgniteEx)s1).context().discovery().setCustomEventListener(Mutable.class, (topVer, snd, msg) -> {
            if (first.getAndSet(false)) {
                try {
                    happened.await(30, TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });

        awaitQuietQueue();

        // The coordinator hears of the message while held, so that the step that takes it is the last its watch asks
        // for: a step that fails after taking it leaves nothing to say the queue must be listed again.
        try (AutoCloseable held = spiOf(s1).engine().holdDiscoveryForTest()) {
            armed.set(true);
            ((IgniteEx)s2).context().discovery().sendCustomEvent(new Mutable());
            Thread.sleep(500);
        }

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            meanwhile.run(c);
        }
        finally {
            happened.countDown();
        }

        await("s2 got the message", 30_000, () -> seenAt.size() == 1);
        assertEquals("commits failed", 1, failed.get());

        return seenAt;
    }

    /**
     * @param failed Counts the commits failed: once armed, the first commit that logs a queued message fails before it
     *      is applied.
     * @param fenced Whether ZooKeeper refuses it on the state's version; if not, it fails as with a lost connection.
     * @return The configuration of a server "s1" whose commits fail so.
     */
    private org.apache.ignite.configuration.IgniteConfiguration failingFirstLoggingOfAQueuedMessage(
        AtomicInteger failed, boolean fenced) {
        return config("s1", false).setDiscoverySpi(spi().setZkFaultsForTest(new ZkFaults.Quiet() {
            @Override public boolean failBeforeCommit(List<CuratorOp> ops) {
                return !fenced && fails(ops);
            }

            @Override public Exception refuseCommit(List<CuratorOp> ops) {
                return fenced && fails(ops) ? new KeeperException.BadVersionException(root + "/state") : null;
            }

            private boolean fails(List<CuratorOp> ops) {
                return armed.get() && logsQueuedMessage(ops) && failed.compareAndSet(0, 1);
            }
        }));
    }

    private void checkMutableDeliveredOnce(Ignite s1, AtomicInteger faults) throws Exception {
        List<Ignite> all = List.of(s1, start("s2"), startClient("c1"));
        Map<String, List<String>> got = new ConcurrentHashMap<>();

        for (Ignite n : all) {
            List<String> l = new CopyOnWriteArrayList<>();

            got.put(n.name(), l);

            ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.Mutable.class,
                (topVer, snd, msg) -> {
                    l.add("mutable " + msg.value);
                    msg.value = "changed by " + n.name();
                });
            ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.MutableAck.class,
                (topVer, snd, msg) -> l.add("ack " + msg.value));
        }

        // Ignite sends mutable messages of its own as nodes start (metastorage): the fault is for the test's only.
        awaitQuietQueue();
        armed.set(true);
        ((IgniteEx)all.get(1)).context().discovery().sendCustomEvent(new CustomMessageTest.Mutable());

        // A second message writes to custom/ again: whatever the coordinator missed there is listed once more.
        await("the fault injected", 30_000, () -> faults.get() > 0);
        Thread.sleep(500);
        ((IgniteEx)all.get(1)).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("nudge"));

        for (Ignite n : all)
            await(n.name() + " got the ack", 30_000, () -> got.get(n.name()).stream().anyMatch(s -> s.startsWith("ack")));

        Thread.sleep(1_000); // A second delivery, if any, comes right after.

        for (Ignite n : all)
            assertEquals(n.name(), List.of("mutable original", "ack changed by s1"), got.get(n.name()));
    }

    /** @return The topology versions at which {@code n} gets the test's mutable messages, in order. */
    private static List<Long> topVersOf(Ignite n) {
        List<Long> at = new CopyOnWriteArrayList<>();

        ((IgniteEx)n).context().discovery().setCustomEventListener(Mutable.class,
            (topVer, snd, msg) -> at.add(topVer.topologyVersion()));

        return at;
    }
}
