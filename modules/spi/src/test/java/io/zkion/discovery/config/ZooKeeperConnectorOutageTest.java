package io.zkion.discovery.config;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.logger.NullLogger;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * A ZooKeeper outage longer than the session timeout, as the outage guard rides out: the node's ZooKeeper client
 * neither ends its session on its own clock nor spins while it waits. Curator's connection-state thread busy-looped
 * there once (a core per node for the rest of the outage) when simulated expiration was turned off with 0.
 */
public class ZooKeeperConnectorOutageTest {
    private static final String NODE = "outage-test";

    @Test(timeout = 120_000) public void aLongOutageCostsNoCpuAndKeepsTheSession() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            CuratorFramework c = new ZooKeeperConnector(zk.getConnectString(), 4_000, null, NODE, new NullLogger())
                .connect();

            try {
                long session = c.getZookeeperClient().getZooKeeper().getSessionId();
                int granted = c.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
                CountDownLatch suspended = new CountDownLatch(1);

                c.getConnectionStateListenable().addListener((cl, st) -> {
                    if (st == ConnectionState.SUSPENDED)
                        suspended.countDown();
                });

                zk.stop();

                assertTrue("No suspension", suspended.await(30, TimeUnit.SECONDS));

                // Past the session timeout while suspended: where the spinning began.
                Thread.sleep(granted + 1_000);

                long window = 2_000;
                long cpu0 = curatorCpuNanos();

                Thread.sleep(window);

                long cpuMs = TimeUnit.NANOSECONDS.toMillis(curatorCpuNanos() - cpu0);

                // Spinning, the thread took about the whole window (1,999 ms of 2,000 when checked with 0).
                assertTrue("The node's Curator threads used " + cpuMs + " ms of CPU in " + window + " ms of outage",
                    cpuMs < window / 10);

                zk.restart();

                assertTrue("No reconnection after the outage", c.blockUntilConnected(30, TimeUnit.SECONDS));
                assertEquals("Curator ended the session on its own clock", session,
                    c.getZookeeperClient().getZooKeeper().getSessionId());
            }
            finally {
                c.close();
            }
        }
    }

    /** @return The CPU time of this node's Curator threads, summed; fails if there is none to measure. */
    private static long curatorCpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();

        assumeTrue("This JVM measures no thread's CPU time", mx.isThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled());

        long sum = 0;
        int threads = 0;

        for (ThreadInfo t : mx.dumpAllThreads(false, false)) {
            if (t.getThreadName().startsWith("zkion-curator-") && t.getThreadName().contains("%" + NODE + "%")) {
                long cpu = mx.getThreadCpuTime(t.getThreadId());

                if (cpu >= 0) {
                    sum += cpu;
                    threads++;
                }
            }
        }

        // Curator's connection-state thread is always among them: a sum over no thread would prove nothing.
        assertTrue("No Curator thread of the node to measure", threads > 0);

        return sum;
    }
}
