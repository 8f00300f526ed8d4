package io.zkion.discovery.member;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.SharedCommonData;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** A joiner's read of the common data its batch shares: whole with its own part, or an error that names the znode. */
public class SharedCommonReaderTest {
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());
    private static final ObjectCodec OBJECTS = new ObjectCodec(JdkMarshallers.create(), StreamingZip.defaults().stored(),
        SharedCommonReaderTest.class.getClassLoader());

    @Test(timeout = 60_000) public void theSharedPartAndTheOwnMakeTheWhole() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), 1 << 20);
            String path = store.paths().joinedShared(UUID.randomUUID());
            Map<Integer, Serializable> shared = new HashMap<>();

            shared.put(1, "shared one");
            shared.put(2, "shared two");
            c.create().creatingParentsIfNeeded().forPath(path, CODEC.encode(new SharedCommonData(OBJECTS.marshal(shared))));

            Map<Integer, Serializable> own = new HashMap<>();

            own.put(3, "own three");

            Map<Integer, Serializable> all = reader(store).withShared(own, reader(store).read(path, "the answer"), path);

            assertEquals(3, all.size());
            assertEquals("shared one", all.get(1));
            assertEquals("own three", all.get(3));
        }
    }

    @Test(timeout = 60_000) public void oneGoneOrNotSharedOrCorruptIsNamed() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), 1 << 20);
            String gone = store.paths().joinedShared(UUID.randomUUID());

            try {
                reader(store).read(gone, "the answer");
                fail("read " + gone);
            }
            catch (SharedCommonReader.Gone e) {
                assertTrue("the joiner tells whether its session ended: " + e.getMessage(),
                    e.getMessage().contains(gone) && e.getMessage().contains("which is gone"));
            }

            refused(store, store.paths().node(UUID.randomUUID()), "not a znode of shared common data");

            String corrupt = store.paths().joinedShared(UUID.randomUUID());

            c.create().creatingParentsIfNeeded().forPath(corrupt, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            refused(store, corrupt, corrupt);
        }
    }

    private static void refused(ZkStore store, String path, String expected) throws Exception {
        try {
            reader(store).withShared(new HashMap<>(), reader(store).read(path, "the answer"), path);
            fail("read " + path);
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(path) && e.getMessage().contains(expected));
        }
    }

    private static SharedCommonReader reader(ZkStore store) {
        return new SharedCommonReader(store, CODEC, OBJECTS);
    }

    private static CuratorFramework client(TestingServer zk) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();

        return c;
    }
}
