package io.zkion.discovery.zk;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A node that starts where the layout stands writes nothing to make it. A create that finds its znode is refused, but
 * only after it went through the write pipeline (it takes a transaction id, and in an ensemble a proposal through the
 * leader): ten of them for every node that started, a third of the writes of a 1,000-member join storm.
 */
public class LayoutWritesTest {
    private static final byte[] GATE = {1, 2, 3};

    @Test(timeout = 60_000) public void aLayoutThatStandsCostsNoWrite() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework first = client(zk);
             CuratorFramework second = client(zk)) {
            ZkPaths paths = new ZkPaths("/r/cluster");
            ZkStore founder = new ZkStore(first, paths, 1 << 20);

            founder.ensureLayout(founder.rootChildren(), GATE);

            for (String p : paths.parents())
                assertTrue(p, first.checkExists().forPath(p) != null);

            assertArrayEquals(GATE, first.getData().forPath(paths.gate));

            ZkStore joiner = new ZkStore(second, paths, 1 << 20);
            long before = zxid(zk);

            joiner.ensureLayout(joiner.rootChildren(), new byte[] {9});

            assertEquals("transactions for a layout that stands", before, zxid(zk));
            assertArrayEquals("the gate as the first node wrote it", GATE, first.getData().forPath(paths.gate));
        }
    }

    /** What is missing is made, whatever else stands: a gate gone, a directory removed by the last node out. */
    @Test(timeout = 60_000) public void whatIsMissingIsMade() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkPaths paths = new ZkPaths("/r/cluster");
            ZkStore store = new ZkStore(c, paths, 1 << 20);

            store.ensureLayout(store.rootChildren(), GATE);
            c.delete().forPath(paths.log);
            c.delete().forPath(paths.gate);

            long before = zxid(zk);

            store.ensureLayout(store.rootChildren(), GATE);

            assertTrue(c.checkExists().forPath(paths.log) != null);
            assertArrayEquals(GATE, c.getData().forPath(paths.gate));
            assertEquals("two creates", before + 2, zxid(zk));
        }
    }

    /** @return The server's last transaction id, from {@code srvr} (allowed by default). */
    private static long zxid(TestingServer zk) throws Exception {
        try (Socket s = new Socket("127.0.0.1", zk.getPort())) {
            OutputStream out = s.getOutputStream();

            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = s.getInputStream();
            String got = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            Matcher m = Pattern.compile("Zxid: 0x([0-9a-f]+)").matcher(got);

            assertTrue(got, m.find());

            return Long.parseLong(m.group(1), 16);
        }
    }

    private static CuratorFramework client(TestingServer zk) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();
        c.blockUntilConnected();

        return c;
    }
}
