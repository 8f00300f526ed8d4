package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.CustomMessageTest.Mutable;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * The coordinator admits the joins it sees before it takes its queue of custom messages: each mutable message there is
 * delivered to Ignite on the coordinator and awaited, and a node that starts queues ten or so, so joins behind them
 * waited for all of them. A mutable message the coordinator delivered and failed to log stays first, though: Ignite
 * there has it, so the log has it before any join.
 */
public class JoinsBeforeQueueTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aJoinGoesBeforeMessagesQueuedWithIt() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<Long> seenAt = topVersOf(s2);

        joinInOnePass(s1, List.of(config("s3", false)), c -> {
            ((IgniteEx)s2).context().discovery().sendCustomEvent(new Mutable());

            await("the message queued", 10_000, () -> !childrenOf(c, root + "/custom").isEmpty());
        });

        await("s2 got the message", 20_000, () -> seenAt.size() == 1);

        // Queued before the coordinator's step, like the join request: the join went first.
        assertEquals("topology versions of the message on s2", List.of(3L), seenAt);
    }

    @Test(timeout = 120_000) public void aMessageDeliveredBeforeAFailedCommitStaysBeforeAJoin() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicInteger failed = new AtomicInteger();
        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setZkFaultsForTest(new ZkFaults.Quiet() {
            @Override public boolean failBeforeCommit(List<CuratorOp> ops) {
                return armed.get() && logsQueuedMessage(ops) && failed.compareAndSet(0, 1);
            }
        })));
        Ignite s2 = start("s2");
        List<Long> seenAt = topVersOf(s2);
        CountDownLatch joinRequested = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);

        // The coordinator's Ignite holds the first delivery until a join waits: its commit then fails, and the step
        // that logs it again sees the join too.
        ((IgniteEx)s1).context().discovery().setCustomEventListener(Mutable.class, (topVer, snd, msg) -> {
            if (first.getAndSet(false)) {
                try {
                    joinRequested.await(30, TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });

        awaitQuietQueue();
        armed.set(true);
        ((IgniteEx)s2).context().discovery().sendCustomEvent(new Mutable());

        CompletableFuture<Ignite> s3 = CompletableFuture.supplyAsync(() -> start("s3"));

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();
            await("s3's join request", 30_000, () -> !childrenOf(c, root + "/join").isEmpty());
        }

        joinRequested.countDown();

        await("s2 got the message", 30_000, () -> seenAt.size() == 1);
        s3.get(60, TimeUnit.SECONDS);

        assertEquals("commits failed", 1, failed.get());
        assertEquals("topology versions of the message on s2", List.of(2L), seenAt);
    }

    /** @return The topology versions at which {@code n} gets the test's mutable messages, in order. */
    private static List<Long> topVersOf(Ignite n) {
        List<Long> at = new CopyOnWriteArrayList<>();

        ((IgniteEx)n).context().discovery().setCustomEventListener(Mutable.class,
            (topVer, snd, msg) -> at.add(topVer.topologyVersion()));

        return at;
    }
}
