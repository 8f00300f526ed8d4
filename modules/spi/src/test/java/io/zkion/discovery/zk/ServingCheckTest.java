package io.zkion.discovery.zk;

import java.net.ServerSocket;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** A serving server answers {@code srvr} with its mode; a silent path, a closed port and nonsense do not count. */
public class ServingCheckTest {
    @Test public void aServingServerCounts() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            assertTrue(ServingCheck.anyServing("127.0.0.1:1," + zk.getConnectString() + "/chroot", 500));
        }
    }

    @Test public void aSilentPathAClosedPortAndNonsenseDoNot() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            long start = System.nanoTime();

            // Accepted by the backlog, never answered: a path that drops everything.
            assertFalse(ServingCheck.anyServing("127.0.0.1:" + silent.getLocalPort() + ",127.0.0.1:1", 300));
            assertTrue("bounded by the timeout", System.nanoTime() - start < 5_000_000_000L);
        }

        assertFalse(ServingCheck.anyServing("not a connect string", 300));
        assertFalse(ServingCheck.anyServing(null, 300));
    }

    @Test public void aServerThatStoppedServingDoesNotCount() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            String servers = zk.getConnectString();

            zk.stop();
            assertFalse(ServingCheck.anyServing(servers, 300));
        }
    }
}
