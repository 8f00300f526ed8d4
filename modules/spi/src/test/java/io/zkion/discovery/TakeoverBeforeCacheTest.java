package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A successor takes the coordinator's role before its cache of alive/ has loaded: at 1,000 members that load is a read
 * of every alive znode, and it held the predecessor's NODE_FAILED back (issue 20). The tests hold every cache of this
 * JVM unloaded: the successor must still fail a dead predecessor from a listing of its own, and must not fail one
 * that stopped and left a marker.
 */
public class TakeoverBeforeCacheTest extends ZkIonTestSupport {
    @After public void release() {
        Coordinator.holdAliveLoadForTest(false);
    }

    @Test(timeout = 120_000) public void aSuccessorFailsItsDeadPredecessorBeforeItsCacheLoads() throws Exception {
        Ignite s1 = start("s1");

        failCoordinatorWithCachesHeld(s1, start("s2"), () -> { });
    }

    /**
     * The reply to the successor's first commit is lost after ZooKeeper applied it, and the store sends it again, as
     * Curator does: the replay fails on the state's version, and the successor goes on from the entry that landed. The
     * predecessor is failed once, and the next join comes right after it.
     */
    @Test(timeout = 120_000) public void aLostReplyOfTheFirstCommitFailsThePredecessorOnce() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicBoolean lost = new AtomicBoolean();
        String state = root + "/state";
        ZkFaults faults = ops -> armed.get() && writesState(ops, state) && armed.compareAndSet(true, false)
            && lost.compareAndSet(false, true);

        Ignite s1 = start("s1");

        // s2 writes the state only once it coordinates.
        failCoordinatorWithCachesHeld(s1, start(config("s2", false).setDiscoverySpi(spi().setZkFaultsForTest(faults))),
            () -> armed.set(true));

        assertTrue("the reply was not lost", lost.get());
    }

    /**
     * The successor's first step fails: its listing of left/ is refused once, with an error Curator does not retry.
     * The next step tries it again, still before the cache of alive/ has started, and fails the predecessor.
     */
    @Test(timeout = 120_000) public void aFirstStepThatFailedIsTriedAgainBeforeTheCache() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        String left = root + "/left";
        ZkFaults faults = new ZkFaults.Quiet() {
            @Override public Exception failListing(String path) {
                return path.equals(left) && armed.compareAndSet(true, false)
                    ? KeeperException.create(KeeperException.Code.NOAUTH, path) : null;
            }
        };

        Ignite s1 = start("s1");

        // s2 lists left/ only once it coordinates.
        failCoordinatorWithCachesHeld(s1, start(config("s2", false).setDiscoverySpi(spi().setZkFaultsForTest(faults))),
            () -> armed.set(true));

        assertFalse("the listing was not refused", armed.get());
    }

    /**
     * Fails the coordinator {@code s1} with every cache of alive/ held unloaded: {@code s2}, started second, takes over
     * and must fail it from its own listing. A joiner then comes right after, once the caches load.
     */
    private void failCoordinatorWithCachesHeld(Ignite s1, Ignite s2, Runnable beforeFailure) throws Exception {
        Ignite s3 = start("s3");
        List<String> seen2 = record(s2);
        List<String> seen3 = record(s3);

        Coordinator.holdAliveLoadForTest(true);
        beforeFailure.run();
        spiOf(s1).simulateNodeFailure();

        await("NODE_FAILED of s1 on s2 and s3, the caches held", 30_000,
            () -> seen2.contains("NODE_FAILED order=1 topVer=4") && seen3.contains("NODE_FAILED order=1 topVer=4"));
        assertTrue(spiOf(s2).engine().coordinatorForTest().failedUnlistedForTest());

        Coordinator.holdAliveLoadForTest(false);

        // The full steps take over from there: s2 admits a joiner.
        Ignite s4 = start("s4");

        await("s2 and s3 saw s4 join", 30_000, () -> seen2.contains("NODE_JOINED order=5 topVer=5")
            && seen3.contains("NODE_JOINED order=5 topVer=5"));
        assertEquals(3, s4.cluster().nodes().size());
        // One takeover: a lost reply is not a reason to resign and take the role again.
        assertEquals(1, spiOf(s2).discoveryMetrics().takeovers());
        assertEquals(1, seen2.stream().filter(s -> s.startsWith("NODE_FAILED")).count());
        assertEquals(seen2, seen3);
    }

    /** @return Whether {@code ops} set the cluster state: a coordinator's commit of a log entry. */
    private static boolean writesState(List<CuratorOp> ops, String state) {
        return ops.stream().anyMatch(op -> state.equals(op.get().getPath())
            && op.get().getType() == org.apache.zookeeper.ZooDefs.OpCode.setData);
    }

    @Test(timeout = 120_000) public void aPredecessorThatStoppedIsNotFailedBeforeTheCacheLoads() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        List<String> seen2 = record(s2);
        List<String> seen3 = record(s3);

        Coordinator.holdAliveLoadForTest(true);

        // A stopping coordinator writes its marker, then closes its session: s2 takes over once its alive znode is gone.
        CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> Ignition.stop(s1.name(), true));

        nodes.remove(s1);
        await("s2 took over and listed alive/ with its cache held", 30_000, () -> {
            Coordinator crd = spiOf(s2).engine().coordinatorForTest();

            return crd != null && crd.failedUnlistedForTest();
        });

        Coordinator.holdAliveLoadForTest(false);
        stop.get(60, TimeUnit.SECONDS);

        await("NODE_LEFT of s1 on s2 and s3", 30_000,
            () -> seen2.contains("NODE_LEFT order=1 topVer=4") && seen3.contains("NODE_LEFT order=1 topVer=4"));
        assertFalse("s1 stopped, yet was failed: " + seen2, seen2.stream().anyMatch(s -> s.startsWith("NODE_FAILED")));
        assertEquals(seen2, seen3);
    }
}
