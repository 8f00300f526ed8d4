package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The coordinator writes the joins it sees together in one log entry and one multi (issue 20). One joiner whose
 * session ends before that multi fails all of it: the others must still join in that pass, not be dropped with it,
 * and the one gone asks again and joins after them. Members read the data of such an entry's joins together.
 */
public class BatchedJoinsTest extends ZkIonTestSupport {
    @Test(timeout = 180_000) public void aJoinerGoneBeforeItsBatchCommitsLeavesTheOthersJoined() throws Exception {
        ErrorLog log1 = new ErrorLog(true);
        Ignite s1 = start(config("s1", false).setGridLogger(log1));
        List<ZkIonDiscoverySpi> spis = new ArrayList<>();
        List<String> joiners = new ArrayList<>();
        AtomicReference<UUID> victim = new AtomicReference<>();
        AtomicReference<Throwable> faultErr = new AtomicReference<>();

        joinInOnePass(s1, configs(spis, "a", "b", "c"), c -> {
            joiners.addAll(c.getChildren().forPath(root + "/join"));

            spiOf(s1).engine().zkFaultsForTest(new ZkFaults.Quiet() {
                @Override public boolean failBeforeCommit(List<CuratorOp> ops) {
                    List<UUID> answered = new ArrayList<>();

                    for (CuratorOp op : ops) {
                        String p = op.getTypeAndPath().getForPath();

                        // An answer, named for its joiner; not the common data the batch shares.
                        if (p.startsWith(root + "/joined/") && !p.startsWith(root + "/joined/shared-"))
                            answered.add(UUID.fromString(p.substring(p.lastIndexOf('/') + 1)));
                    }

                    // The first multi that answers more than one joiner: the second of them ends its session now.
                    if (answered.size() > 1 && victim.compareAndSet(null, answered.get(1))) {
                        try {
                            expire(answered.get(1), spis, c);
                        }
                        catch (Throwable e) {
                            faultErr.set(e);
                        }
                    }

                    return false;
                }
            });
        });

        assertEquals(null, faultErr.get());
        assertNotNull("the coordinator answered more than one joiner in one multi", victim.get());

        await("four servers everywhere", 60_000, () -> nodes.stream().allMatch(n -> n.cluster().nodes().size() == 4));

        String left = "Joining node left before its join completed [node=";

        assertTrue("the joiner gone was dropped from its batch", log1.messages.stream()
            .anyMatch(m -> m.contains(left + victim.get())));

        for (String id : joiners) {
            if (!id.equals(victim.get().toString()))
                assertFalse("joiner " + id + " was not dropped with the one gone", log1.messages.stream()
                    .anyMatch(m -> m.contains(left + id)));
        }

        // The others joined first, in the pass that dropped the one gone; it joined again after them, under the id
        // it asked with again (a server keeps its id).
        long victimOrder = nodes.stream().filter(n -> n.cluster().localNode().id().equals(victim.get()))
            .findFirst().get().cluster().localNode().order();

        assertEquals(4, victimOrder);
    }

    /**
     * A member that does not coordinate applies an entry of several joins: it reads their data znodes with the
     * requests in flight together, not one round trip per join, and has every joiner in its topology after.
     */
    @Test(timeout = 180_000) public void aMemberReadsTheDataOfABatchOfJoinsTogether() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<String> reads = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch threeSent = new java.util.concurrent.CountDownLatch(3);

        spiOf(s2).engine().zkFaultsForTest(new ZkFaults.Quiet() {
            @Override public void readSent(String path) {
                if (path.startsWith(root + "/nodes/")) {
                    reads.add("sent");
                    threeSent.countDown();
                }
            }

            // Each reply is held until three reads are out: a reader that waited for a reply before its next read
            // would send one, then wait here 10 s in vain. Without the hold, a fast reply may overtake the second send.
            @Override public void readReplied(String path) {
                if (path.startsWith(root + "/nodes/")) {
                    try {
                        if (!threeSent.await(10, java.util.concurrent.TimeUnit.SECONDS))
                            reads.add("held in vain");
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }

                    reads.add("replied");
                }
            }
        });

        joinInOnePass(s1, configs(new ArrayList<>(), "a", "b", "c"), c -> { });

        await("five servers at s2", 60_000, () -> s2.cluster().nodes().size() == 5);

        assertEquals("s2 sent the three reads before the first reply: " + reads, List.of("sent", "sent", "sent"),
            reads.subList(0, Math.min(3, reads.size())));
        assertEquals(6, reads.size());
    }

    /** @return Servers' configurations named {@code names}; {@code spis} gets their SPIs. */
    private List<IgniteConfiguration> configs(List<ZkIonDiscoverySpi> spis, String... names) {
        List<IgniteConfiguration> cfgs = new ArrayList<>();

        for (String name : names) {
            IgniteConfiguration cfg = config(name, false);

            spis.add((ZkIonDiscoverySpi)cfg.getDiscoverySpi());
            cfgs.add(cfg);
        }

        return cfgs;
    }

    /** Ends the session of the joiner {@code id} on the server, and waits until its alive znode is gone. */
    private void expire(UUID id, List<ZkIonDiscoverySpi> spis, CuratorFramework c) throws Exception {
        for (ZkIonDiscoverySpi spi : spis) {
            if (spi.getLocalNode() != null && id.equals(spi.getLocalNode().id()))
                spi.engine().expireSessionOnServerForTest();
        }

        long end = System.currentTimeMillis() + 10_000;

        while (c.checkExists().forPath(root + "/alive/" + id) != null && System.currentTimeMillis() < end)
            Thread.sleep(20);
    }
}
