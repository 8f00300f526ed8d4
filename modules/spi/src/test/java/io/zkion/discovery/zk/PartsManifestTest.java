package io.zkion.discovery.zk;

import java.lang.management.ManagementFactory;
import java.util.Random;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A payload too large for one znode is stored as parts behind a manifest. A damaged manifest is read back to exactly
 * the payload or refused with an error that names its znode; it never hangs, and never sizes the read by what it
 * declares (issue 25: the parts manifest fuzzed).
 */
public class PartsManifestTest {
    /** Small parts, so that a payload of 200 KB has several. */
    private static final int REQUEST_LIMIT = 64 << 10;
    private static final String PATH = "/r/custom/c-0000000001";

    @Test(timeout = 60_000) public void aManifestThatDeclares2GbIsRefusedWithoutAllocatingThem() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), REQUEST_LIMIT);
            byte[] payload = plant(c, store, 1);
            PartsManifest m = PartsManifest.decode(c.getData().forPath(PATH), PATH);

            c.setData().forPath(PATH, new PartsManifest(m.blobId, m.count, Integer.MAX_VALUE - 64, m.crc32).encode());

            long before = allocated();

            try {
                store.read(PATH);
                fail("read a manifest that declares more than its parts hold");
            }
            catch (ZkDataException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(PATH) && e.getMessage().contains("declares"));
            }

            long took = allocated() - before;

            // The parts themselves are 200 KB; the declared size is 2 GB.
            assertTrue("the read allocated " + took + " bytes", took < 64L << 20);

            c.setData().forPath(PATH, m.encode());
            assertArrayEquals(payload, store.read(PATH));
        }
    }

    @Test(timeout = 120_000) public void aDamagedManifestIsReadWholeOrRefusedByName() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), REQUEST_LIMIT);
            byte[] payload = plant(c, store, 2);
            byte[] good = c.getData().forPath(PATH);
            Random rnd = new Random(25);
            int refused = 0;

            for (int i = 0; i < 400; i++) {
                byte[] bad = mutate(good, rnd, i);

                if (!PartsManifest.isManifest(bad))
                    continue; // A payload then, not a manifest: the codec's own fuzzing covers what it holds.

                c.setData().forPath(PATH, bad);

                long before = allocated();

                try {
                    assertArrayEquals("a damaged manifest read to other bytes", payload, store.read(PATH));
                }
                catch (ZkDataException e) {
                    assertTrue(e.getMessage(), e.getMessage().contains(PATH));
                    refused++;
                }

                long took = allocated() - before;

                assertTrue("case " + i + " allocated " + took + " bytes", took < 64L << 20);
            }

            assertTrue("refused " + refused, refused > 100);
        }
    }

    /** Writes a 200 KB payload at {@link #PATH} as the SPI does; @return it. */
    private static byte[] plant(CuratorFramework c, ZkStore store, long seed) throws Exception {
        byte[] payload = new byte[200 << 10];

        new Random(seed).nextBytes(payload);
        c.create().creatingParentsIfNeeded().forPath("/r/custom");
        c.create().creatingParentsIfNeeded().forPath("/r/parts");

        ZkStore.Prepared p = store.create(PATH, payload, CreateMode.PERSISTENT);

        assertTrue("the payload went to parts", p.manifest != null);
        c.transaction().forOperations(p.ops);

        return payload;
    }

    /** Truncated, bit-flipped, extended, or random bytes behind the magic and a version byte. */
    private static byte[] mutate(byte[] good, Random rnd, int i) {
        int magic = 7;

        switch (i % 4) {
            case 0:
                return java.util.Arrays.copyOf(good, magic + 1 + rnd.nextInt(good.length - magic));

            case 1: {
                byte[] b = good.clone();

                for (int f = 0, n = 1 + rnd.nextInt(3); f < n; f++)
                    b[magic + rnd.nextInt(b.length - magic)] ^= (byte)(1 << rnd.nextInt(8));

                return b;
            }

            case 2:
                return java.util.Arrays.copyOf(good, good.length + 1 + rnd.nextInt(16));

            default: {
                byte[] b = good.clone();

                for (int k = magic + 1 + rnd.nextInt(b.length - magic - 1); k < b.length; k++)
                    b[k] = (byte)rnd.nextInt();

                return b;
            }
        }
    }

    /** @return Bytes this thread allocated so far (HotSpot's count). */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean())
            .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static CuratorFramework client(TestingServer zk) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();

        return c;
    }
}
