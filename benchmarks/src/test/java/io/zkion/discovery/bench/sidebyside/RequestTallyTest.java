package io.zkion.discovery.bench.sidebyside;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The counting proxy passes a session through and sums its requests by type and directory, a multi's one by one. */
public class RequestTallyTest {
    @Test public void requestsAreSummedByTypeAndDirectory() throws Exception {
        try (TestingServer zk = new TestingServer(-1, true);
             RequestTally tally = new RequestTally(zk.getPort(), "/root");
             CuratorFramework c = CuratorFrameworkFactory.newClient(tally.connectString(), new RetryOneTime(100))) {
            c.start();
            c.blockUntilConnected();
            c.create().creatingParentsIfNeeded().forPath("/root/dir");

            tally.counting = true;
            c.create().forPath("/root/dir/a", new byte[1000]);
            c.transaction().forOperations(c.transactionOp().create().forPath("/root/dir/b", new byte[500]),
                c.transactionOp().delete().forPath("/root/dir/a"));
            assertEquals(500, c.getData().forPath("/root/dir/b").length);
            tally.counting = false;
            c.getData().forPath("/root/dir/b"); // Not counted.

            String md = tally.markdown("t", "op", 1);

            assertTrue(md, row(md, "create /dir/a") > 1000 && row(md, "create /dir/a") < 1100);
            assertTrue(md, row(md, "multi create /dir/b") > 500 && row(md, "multi create /dir/b") < 600);
            assertTrue(md, row(md, "multi delete /dir/a") > 0);
            assertTrue(md, row(md, "multi") > 0);
            assertEquals(md, 1.0, count(md, "getData /dir/b"), 0.0);
        }
    }

    /** @return The bytes of row {@code key} of the tally's table. */
    private static long row(String md, String key) {
        return Long.parseLong(cells(md, key)[3].replace(",", ""));
    }

    private static double count(String md, String key) {
        return Double.parseDouble(cells(md, key)[2]);
    }

    private static String[] cells(String md, String key) {
        for (String line : md.split("\n")) {
            if (line.startsWith("| `" + key + "`"))
                return line.split("\\s*\\|\\s*");
        }

        throw new AssertionError("No row " + key + " in\n" + md);
    }
}
