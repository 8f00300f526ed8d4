package io.zkion.discovery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * The coordinator hands a mutable message to Ignite before the commit that logs it. When that commit's outcome is
 * unclear, the message must still be delivered once on every node, and its ack built from the copy the coordinator's
 * listener changed: whether the commit landed and only its reply was lost (Curator's replay then fails on the
 * state's version), or it never reached ZooKeeper and the request is processed again.
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
        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setZkFaultsForTest(new io.zkion.discovery.zk.ZkFaults.Quiet() {
            @Override public boolean failBeforeCommit(List<CuratorOp> ops) {
                return armed.get() && logsQueuedMessage(ops) && failed.getAndIncrement() == 0;
            }
        })));

        checkMutableDeliveredOnce(s1, failed);
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
}
