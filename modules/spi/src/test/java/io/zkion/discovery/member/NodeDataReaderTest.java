package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.NodeData;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.zk.ZkFaults;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A joiner's read of every member's data znode: each node handed on before the next chunk is asked for, none kept
 * (the codec's {@code NodeOnlyReadTest} shows the joining data after each is not inflated).
 */
public class NodeDataReaderTest {
    private static final int NODES = 300;
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());

    @Test(timeout = 60_000) public void eachIsHandedOnAChunkAtATime() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), 1 << 20);
            List<UUID> ids = plant(c, store.paths());
            List<String> seen = new CopyOnWriteArrayList<>();

            store.faults(new ZkFaults.Quiet() {
                @Override public void readSent(String path) {
                    seen.add("sent");
                }
            });

            List<UUID> got = new ArrayList<>();

            new NodeDataReader(store, CODEC).readNodes(ids, "the test", (id, node) -> {
                seen.add("handed");
                got.add(id);
                assertArrayEquals(node(id), node);
            });

            assertEquals(ids, got);
            // The first node is handed on before the last read is sent: the reads do not all come first.
            assertTrue(seen.indexOf("handed") < seen.lastIndexOf("sent"));
        }
    }

    @Test(timeout = 60_000) public void aMissingOneIsReportedByName() throws Exception {
        try (TestingServer zk = new TestingServer(true); CuratorFramework c = client(zk)) {
            ZkStore store = new ZkStore(c, new ZkPaths("/r"), 1 << 20);
            List<UUID> ids = plant(c, store.paths());
            UUID gone = ids.get(NODES - 1);

            c.delete().forPath(store.paths().node(gone));

            try {
                new NodeDataReader(store, CODEC).readNodes(ids, "the test", (id, node) -> { });
                fail("read a data znode that is gone");
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(store.paths().node(gone)));
            }
        }
    }

    private static List<UUID> plant(CuratorFramework c, ZkPaths paths) throws Exception {
        List<UUID> ids = new ArrayList<>();

        for (int i = 0; i < NODES; i++) {
            UUID id = new UUID(7, i);

            c.create().creatingParentsIfNeeded().forPath(paths.node(id), CODEC.encode(new NodeData(node(id), new byte[64])));
            ids.add(id);
        }

        return ids;
    }

    private static byte[] node(UUID id) {
        return id.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static CuratorFramework client(TestingServer zk) {
        CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        c.start();

        return c;
    }
}
