package io.zkion.discovery;

import java.util.List;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.CacheConfiguration;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/** A graceful stop is NODE_LEFT; a lost session is NODE_FAILED, and a new coordinator takes over. */
public class LeaveAndFailTest extends ZkIonTestSupport {
    @Test(timeout = 180_000) public void gracefulStopIsNodeLeft() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        List<String> seen1 = record(s1);
        List<String> seen3 = record(s3);
        IgniteCache<Integer, Integer> cache = fill(s1);

        long t0 = System.nanoTime();

        Ignition.stop(s2.name(), true);

        await("NODE_LEFT on s1 and s3", 10_000, () -> seen1.contains("NODE_LEFT order=2 topVer=4")
            && seen3.contains("NODE_LEFT order=2 topVer=4"));

        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertTrue("Graceful leave took " + ms + " ms", ms < SESSION_TIMEOUT);
        assertTrue(seen1.toString(), seen1.stream().noneMatch(s -> s.startsWith("NODE_FAILED")));

        for (int i = 0; i < 1000; i++)
            assertEquals(Integer.valueOf(i), s3.<Integer, Integer>cache("c").get(i));

        assertEquals(1000, cache.size());
    }

    @Test(timeout = 180_000) public void coordinatorSessionLossIsNodeFailed() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        List<String> seen2 = record(s2);
        List<String> seen3 = record(s3);

        fill(s2);

        assertEquals(s1.cluster().localNode().id(), s2.cluster().forServers().forOldest().node().id());

        // The coordinator's session closes abruptly: no left/ marker, its alive znode vanishes at once.
        spiOf(s1).simulateNodeFailure();

        await("NODE_FAILED on s2 and s3", 30_000, () -> seen2.contains("NODE_FAILED order=1 topVer=4")
            && seen3.contains("NODE_FAILED order=1 topVer=4"));
        await("s1 stops, segmented", 30_000, () -> Ignition.state(s1.name()) != org.apache.ignite.IgniteState.STARTED);

        // s2 coordinates now: it writes the next events.
        Ignite s4 = start("s4");

        await("s4 joined everywhere", 30_000, () -> s2.cluster().nodes().size() == 3 && s3.cluster().nodes().size() == 3);
        assertEquals(s2.cluster().localNode().id(), s4.cluster().forServers().forOldest().node().id());
        assertNotEquals(0, spiOf(s2).discoveryMetrics().logEntriesWritten());

        for (int i = 0; i < 1000; i++)
            assertEquals(Integer.valueOf(i), s4.<Integer, Integer>cache("c").get(i));

        // Every survivor saw the very same events in the very same order.
        await("s3 saw s4 join", 10_000, () -> seen3.contains("NODE_JOINED order=5 topVer=5"));
        assertEquals(seen2, seen3);
    }

    private IgniteCache<Integer, Integer> fill(Ignite n) {
        IgniteCache<Integer, Integer> cache = n.getOrCreateCache(new CacheConfiguration<Integer, Integer>("c").setBackups(1));

        for (int i = 0; i < 1000; i++)
            cache.put(i, i);

        return cache;
    }
}
