package io.zkion.discovery.compat;

import org.apache.ignite.testframework.junits.common.GridCommonAbstractTest;
import org.junit.Test;

/**
 * Three servers and a client; the coordinator restarts, and the next coordinator stops at once, while the exchange
 * after the restart is still running. The stopping coordinator sends the late-affinity switch (a mutable
 * CacheAffinityChangeMessage) and queues it for itself; Ignite has already set its discovery listener to null and
 * cancelled the worker that would process it. Logged unprocessed, it reached the others with exchangeNeeded unset:
 * the servers started the exchange (they work the flag out themselves), the client trusted the flag and did not, and
 * the next coordinator waited for the client's part of it for good: the next server's start hung. Now a coordinator
 * whose Ignite stops leaves its queue to the next one, which drops the departed node's messages, as TCP discovery
 * does. It hung in every run before the fix (2 of 2 on each Ignite line).
 */
public class CoordinatorStopDuringExchangeTest extends GridCommonAbstractTest {
    @Test public void coordinatorStopsDuringAnExchangeWithAClient() throws Exception {
        startGrid(0);
        startGrid(1);
        startGrid(2);
        startClientGrid(3);

        stopGrid(0);
        startGrid(0);
        stopGrid(1);
        startGrid(1);

        assertEquals(4, grid(2).cluster().nodes().size());
        awaitPartitionMapExchange();
    }

    @Override protected long getTestTimeout() {
        return 60_000;
    }

    @Override protected void afterTest() throws Exception {
        stopAllGrids();
    }
}
