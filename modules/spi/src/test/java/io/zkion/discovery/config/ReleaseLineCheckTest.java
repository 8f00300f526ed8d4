package io.zkion.discovery.config;

import java.util.List;
import java.util.UUID;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The start warning about nodes of another release line under the root: said for nodes of another line or of a
 * release before 0.2 (no release in their record), not for nodes of this one, nor for joiners, nor for a record a
 * coordinator wrote for a joiner; nothing at all under a root with no cluster.
 */
public class ReleaseLineCheckTest {
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());

    @Test(timeout = 60_000) public void nodesOfAnotherLineAreNamedOnceEach() throws Exception {
        try (TestingServer zk = new TestingServer(true);
             CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            assertNull("no cluster", ReleaseLineCheck.warning(c, "/r", CODEC, "0.2.0"));

            alive(c, new AliveInfo(false, List.of("ion-2"), 5, "h1", "h1:47500", 1, "0.2.0-SNAPSHOT"));
            alive(c, new AliveInfo(false, List.of("ion-2"), 0, "h2", "h2:47500", 0, "0.3.0")); // Joining.
            alive(c, new AliveInfo(false, List.of("ion-2"), 1, "h3", "h3:47500", 3, null)); // Admitted, not acked.

            assertNull(ReleaseLineCheck.warning(c, "/r", CODEC, "0.2.1"));

            alive(c, new AliveInfo(false, List.of("ion-1"), 5)); // 0.1.0 writes no release, no host.
            alive(c, new AliveInfo(true, List.of("ion-2"), 5, "h5", "h5:47100", 5, "0.3.0"));
            alive(c, new AliveInfo(false, List.of("ion-2"), 5, "h6", "h6:47500", 6, "0.3.2"));

            c.create().forPath("/r/alive/" + UUID.randomUUID(), new byte[] {'Z', 'K', 9, 1}); // A newer envelope.

            String w = ReleaseLineCheck.warning(c, "/r", CODEC, "0.2.0");

            assertTrue(w, w.startsWith("The root /r holds nodes of another ZkIon release line than this node's 0.2.0:"
                + " 2 of line 0.3; 1 of line before 0.2; 1 of line unknown (a record this release cannot read"));
        }
    }

    @Test public void theLineIsMajorDotMinor() {
        assertEquals("0.2", ReleaseLineCheck.line("0.2.0-SNAPSHOT"));
        assertEquals("1.10", ReleaseLineCheck.line("1.10.3"));
    }

    private static void alive(CuratorFramework c, AliveInfo a) throws Exception {
        c.create().creatingParentsIfNeeded().forPath("/r/alive/" + UUID.randomUUID(), CODEC.encode(a));
    }
}
