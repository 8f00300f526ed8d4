package io.zkion.discovery.zk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;
import org.apache.zookeeper.KeeperException;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Many reads at once, as a joiner of a large cluster makes them: bounded by ZooKeeper's silence, not by their total
 * time, and never all in flight together.
 */
public class WindowedReadsTest {
    /** The silence the reads give up after, here: in production, three session timeouts. */
    private static final int SILENCE_MS = 1_000;
    private static final int ZNODES = 300;

    /**
     * Each reply handled 10 ms late: 300 take 3 s, past the 1 s bound, with a reply every 10 ms. All are read. With the
     * bound on the total time, as before, the read failed with OPERATIONTIMEOUT (the 1,000-member join storm).
     */
    @Test(timeout = 60_000) public void slowRepliesThatKeepComingAreAllRead() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            List<String> paths = plant(c);
            AtomicInteger inFlight = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();

            WindowedReads reads = new WindowedReads(c, new ZkFaults.Quiet() {
                @Override public void readSent(String path) {
                    most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                }

                @Override public void readReplied(String path) {
                    sleep(10);
                    inFlight.decrementAndGet();
                }
            }, SILENCE_MS);

            long start = System.nanoTime();
            Map<String, byte[]> got = reads.read(paths);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertTrue("took longer than the bound: " + ms + " ms", ms > SILENCE_MS);
            assertEquals(ZNODES, got.size());

            for (int i = 0; i < ZNODES; i++)
                assertArrayEquals(data(i), got.get(paths.get(i)));

            assertEquals(0, inFlight.get());
            assertTrue("in flight together: " + most.get(), most.get() > 1);
            assertTrue("a window at a time: " + most.get(), most.get() <= WindowedReads.WINDOW);
        }
    }

    /** Silence for longer than the bound: the read gives up, naming a znode, and does not hang. */
    @Test(timeout = 60_000) public void silenceForASessionTimesOut() throws Exception {
        assertTimesOutNaming(0);
    }

    /** The first read answered, the second silent past the bound: the timeout names the second, still waiting. */
    @Test(timeout = 60_000) public void theTimeoutNamesTheOldestReadStillWaiting() throws Exception {
        assertTimesOutNaming(1);
    }

    /** The reply to read {@code silent} comes past the bound: the read fails, naming that znode. */
    private static void assertTimesOutNaming(int silent) throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            List<String> paths = plant(c);
            WindowedReads reads = new WindowedReads(c, new ZkFaults.Quiet() {
                @Override public void readReplied(String path) {
                    if (path.equals(paths.get(silent)))
                        sleep(SILENCE_MS + 2_000);
                }
            }, SILENCE_MS);

            try {
                reads.read(paths);
                fail("read through a silence of a whole session");
            }
            catch (KeeperException.OperationTimeoutException e) {
                assertEquals(paths.get(silent), e.getPath());
            }
        }
    }

    private static CuratorFramework client(TestingServer zk) {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(zk.getConnectString())
            .retryPolicy(new RetryOneTime(100)).build();

        c.start();

        return c;
    }

    private static List<String> plant(CuratorFramework c) throws Exception {
        List<String> paths = new ArrayList<>();

        for (int i = 0; i < ZNODES; i++) {
            String p = "/w/n" + i;

            c.create().creatingParentsIfNeeded().forPath(p, data(i));
            paths.add(p);
        }

        return paths;
    }

    private static byte[] data(int i) {
        return ("znode " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
