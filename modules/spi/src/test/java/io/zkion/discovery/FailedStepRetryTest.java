package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import io.zkion.discovery.CustomMessageTest.Mutable;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The coordinator lists custom/ and left/ when their watches say something changed. A step that fails after taking
 * that news (here a listing fails once with an error Curator does not retry) must not lose it: the queued message is
 * still logged, and the node that was leaving is NODE_LEFT with its marker removed, not NODE_FAILED with it leaked.
 */
public class FailedStepRetryTest extends ZkIonTestSupport {
    /** The path whose next listing fails, once; null for none. */
    private final AtomicReference<String> failNextListing = new AtomicReference<>();

    private final List<CuratorFramework> closeAfter = new CopyOnWriteArrayList<>();

    @Test(timeout = 120_000) public void aQueuedMessageIsLoggedAfterAFailedListing() throws Exception {
        Ignite s1 = startFaulty("s1");
        Ignite s2 = start("s2");
        List<String> got = new CopyOnWriteArrayList<>();

        ((IgniteEx)s2).context().discovery().setCustomEventListener(Mutable.class, (topVer, snd, msg) ->
            got.add(msg.value));

        // Ignite's own messages after a join go through custom/ too, and would announce the queue again.
        awaitQuietLog(3_000);

        failNextListing.set(root + "/custom");

        // A mutable message always goes through the coordinator's queue; nothing else is written there after it.
        ((IgniteEx)s2).context().discovery().sendCustomEvent(new Mutable());

        await("the listing failed", 10_000, () -> failNextListing.get() == null);
        await("s2 got the queued message", 10_000, () -> got.size() == 1);
        assertEquals(2, s1.cluster().nodes().size());
    }

    @Test(timeout = 120_000) public void aLeavingNodeIsNodeLeftAfterAFailedListing() throws Exception {
        Ignite s1 = startFaulty("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        List<String> seen1 = record(s1);
        List<String> seen2 = record(s2);

        failNextListing.set(root + "/left");

        Ignition.stop(s3.name(), true);

        await("NODE_LEFT of s3 on s1 and s2", 20_000, () -> seen1.contains("NODE_LEFT order=3 topVer=4")
            && seen2.contains("NODE_LEFT order=3 topVer=4"));
        assertEquals(null, failNextListing.get());
        assertTrue(seen1.toString(), seen1.stream().noneMatch(s -> s.startsWith("NODE_FAILED")));

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            await("left/ empty", 10_000, () -> {
                try {
                    return c.getChildren().forPath(root + "/left").isEmpty();
                }
                catch (Exception e) {
                    return false;
                }
            });
        }
    }

    /** Waits until nothing was added to or trimmed from log/ for {@code ms}. */
    private void awaitQuietLog(long ms) throws Exception {
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            int last = -1;
            long since = System.currentTimeMillis();

            while (System.currentTimeMillis() - since < ms) {
                int v = c.checkExists().forPath(root + "/log").getCversion();

                if (v != last) {
                    last = v;
                    since = System.currentTimeMillis();
                }

                Thread.sleep(100);
            }
        }
    }

    /**
     * Starts a server (the coordinator, as the first) whose next listing of the path in {@link #failNextListing}
     * fails, once that path has a child: a listing that would have found the message or the marker.
     */
    private Ignite startFaulty(String name) {
        CuratorFramework peek = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        peek.start();
        closeAfter.add(peek);

        ZkFaults faults = new ZkFaults.Quiet() {
            @Override public Exception failListing(String path) {
                String want = failNextListing.get();

                try {
                    if (!path.equals(want) || peek.getChildren().forPath(path).isEmpty()
                        || !failNextListing.compareAndSet(want, null))
                        return null;
                }
                catch (Exception e) {
                    return null;
                }

                return KeeperException.create(KeeperException.Code.NOAUTH, path);
            }
        };

        return start(config(name, false).setDiscoverySpi(spi().setZkFaultsForTest(faults)));
    }

    @After public void closeClients() {
        for (CuratorFramework c : closeAfter)
            c.close();
    }
}
