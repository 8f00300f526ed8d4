package io.zkion.discovery;

import org.apache.ignite.Ignite;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * ZooKeeper away for less than the session timeout: every node's connection is suspended and comes back in the same
 * session. The metrics tell suspensions from lost sessions, and nobody leaves the cluster.
 */
public class ConnectionStateTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aShortOutageIsASuspensionNotALostSession() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        java.util.List<String> got = CustomMessageTest.pingsAndAcks(s2);

        zk.stop();
        await("both suspended", 10_000,
            () -> spiOf(s1).discoveryMetrics().suspensions() == 1 && spiOf(s2).discoveryMetrics().suspensions() == 1);
        zk.restart();

        // A message after the outage still goes round: both nodes are in, with their sessions.
        ((org.apache.ignite.internal.IgniteEx)s1).context().discovery()
            .sendCustomEvent(new CustomMessageTest.Ping("after"));
        await("the ping after the outage on s2", 30_000, () -> got.contains("ping after"));

        for (Ignite n : new Ignite[] {s1, s2}) {
            assertEquals(n.name(), 0, spiOf(n).discoveryMetrics().sessionsLost());
            assertTrue(n.name(), spiOf(n).discoveryMetrics().suspensions() >= 1);
            assertEquals(2, n.cluster().nodes().size());
        }
    }
}
