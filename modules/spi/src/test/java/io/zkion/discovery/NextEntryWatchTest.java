package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.zk.ZkFaults;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.KeeperException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

/**
 * Members await the next log entry by its name (one-shot watches, set again past each entry read), not by a watch
 * on the whole log: what that rests on, each with the fault it is about. The rollover's side is in
 * {@link LogRolloverTest}, the held thread's in {@link LogGapTest}.
 */
public class NextEntryWatchTest extends ZkIonTestSupport {
    /** Well under the longest a member goes without listing the log (15 s): a delivery that waits for it is late. */
    private static final long PROMPT_MS = 5_000;

    /**
     * The reply to setting the watch on the next entry is lost (a connection loss): the member sets it again. Marking
     * it set before ZooKeeper answered left the member deaf to the log until it listed the log on its own.
     */
    @Test(timeout = 120_000) public void aWatchThatFailsToBeSetIsSetAgain() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicInteger failed = new AtomicInteger();
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi().setZkFaultsForTest(new ZkFaults.Quiet() {
            @Override public Exception failWatch(String path) {
                if (armed.get() && path.startsWith(root + "/log/e-") && failed.compareAndSet(0, 1))
                    return new KeeperException.ConnectionLossException();

                return null;
            }
        })));
        List<String> got = pings(s2);

        // Ignite writes its own messages as nodes start. Once they are done, nothing but the pings comes, and a member
        // whose watch does not stand hears nothing until its next listing.
        Thread.sleep(3_000);
        armed.set(true);

        for (int i = 0; i < 5; i++) {
            int k = i + 1;

            ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));
            await("s2 got p" + i + " promptly", PROMPT_MS, () -> got.size() == k);
        }

        assertEquals("the fault was injected once", 1, failed.get());
        assertEquals(List.of("p0", "p1", "p2", "p3", "p4"), got);
    }

    /**
     * The next entry is created and trimmed before the member's watch stands on its name (here, deleted by a foreign
     * client while the member sets it; in production, trimmed past a node failed out while its session lives, in the
     * moment between two reads), and nothing follows it in the log to show the hole. The member's next listing tells
     * from the log's counter that the entry was written, names it, and stops: without the counter, it waited until
     * a later entry showed the hole.
     */
    @Test(timeout = 120_000) public void anEntryTrimmedBeforeTheWatchStandsIsFoundByTheNextListing() throws Exception {
        ErrorLog log2 = new ErrorLog();
        AtomicBoolean armed = new AtomicBoolean();
        List<String> missed = new CopyOnWriteArrayList<>();
        Ignite s1 = start("s1");
        List<String> got1 = pings(s1);

        try (CuratorFramework zkc = client()) {
            Ignite s2 = start(config("s2", false).setGridLogger(log2).setDiscoverySpi(spi().setZkFaultsForTest(
                new ZkFaults.Quiet() {
                    @Override public Exception failWatch(String path) {
                        // On s2's discovery thread, as it sets the watch past p0: p1 comes and goes first, and the
                        // watch fails to be set, so that s2 lists the log at once (before anything more is written).
                        if (armed.compareAndSet(true, false)) {
                            missed.add(sendAndDelete(s1, got1, zkc, path));

                            return new KeeperException.ConnectionLossException();
                        }

                        return null;
                    }
                })));
            List<String> got = pings(s2);

            Thread.sleep(3_000); // Ignite's own start messages done: no entry after p1 shows the hole.
            armed.set(true);
            ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p0"));

            // Well before its next listing that is due anyway (15 s), by when more entries may show the hole.
            await("s2 names the entry it missed", PROMPT_MS, () -> !missed.isEmpty()
                && log2.has("is missing", missed.get(0)));
            await("s2 is out", 30_000, () -> s1.cluster().nodes().size() == 1);

            assertEquals("s2 delivered p0 and nothing after the hole", List.of("p0"), got);
        }
    }

    /**
     * A member that no longer hears trims forgets trimmed entries by listing the log now and then: after many
     * messages, it holds no more than the log does, not every one it read.
     */
    @Test(timeout = 120_000) public void aMemberForgetsTrimmedEntries() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<String> got = pings(s2);
        int count = 200;

        for (int i = 0; i < count; i++)
            ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));

        await("s2 got every ping", 60_000, () -> got.size() == count);

        try (CuratorFramework zkc = client()) {
            await("the coordinator trimmed the log", 30_000, () -> logLength(zkc) < 64);

            // Without hearing the trims: by its next listing, due within 15 s.
            await("s2 forgot the trimmed entries", 30_000,
                () -> spiOf(s2).engine().untrimmedEntriesForTest() <= logLength(zkc));
        }
    }

    /**
     * A member that takes over as coordinator forgets the entries trimmed since its last listing before it trims:
     * holding them, its first trim deleted znodes that were gone, and the step failed (and was retried).
     */
    @Test(timeout = 120_000) public void aNewCoordinatorForgetsWhatItsPredecessorTrimmed() throws Exception {
        ErrorLog log2 = new ErrorLog();
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setGridLogger(log2));
        List<String> got = pings(s2);
        int count = 100;

        for (int i = 0; i < count; i++)
            ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));

        await("s2 got every ping", 60_000, () -> got.size() == count);

        try (CuratorFramework zkc = client()) {
            await("the coordinator trimmed the log", 30_000, () -> logLength(zkc) < 20);
        }

        org.apache.ignite.Ignition.stop(s1.name(), true);
        await("s2 coordinates", 30_000, () -> spiOf(s2).engine().coordinatorForTest() != null);

        ((IgniteEx)s2).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("after"));
        await("s2 got its own ping", 10_000, () -> got.contains("after"));
        Thread.sleep(1_000); // A few coordinator steps.

        assertFalse("no step failed: " + log2, log2.has("Discovery cycle failed"));
    }

    /**
     * Sends a ping from {@code sender}, waits until its entry is at {@code path} and the sender delivered it (a trim
     * comes after), and deletes it.
     */
    private String sendAndDelete(Ignite sender, List<String> got, CuratorFramework zkc, String path) {
        try {
            ((IgniteEx)sender).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p1"));

            long until = System.currentTimeMillis() + 10_000;

            while (zkc.checkExists().forPath(path) == null || !got.contains("p1")) {
                if (System.currentTimeMillis() > until)
                    throw new AssertionError("no entry at " + path + ", or not delivered by the sender");

                Thread.sleep(20);
            }

            zkc.delete().forPath(path);

            return path.substring(path.lastIndexOf('/') + 1);
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> pings(Ignite n) {
        List<String> got = new CopyOnWriteArrayList<>();

        ((IgniteEx)n).context().discovery().setCustomEventListener(CustomMessageTest.Ping.class,
            (topVer, snd, msg) -> got.add(msg.tag));

        return got;
    }

    private int logLength(CuratorFramework zkc) {
        try {
            return zkc.getChildren().forPath(root + "/log").size();
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();
        c.blockUntilConnected();

        return c;
    }
}
