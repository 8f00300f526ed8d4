package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.apache.ignite.logger.NullLogger;
import org.apache.zookeeper.CreateMode;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

/** Data planted by a foreign ZooKeeper client: a clear error naming the znode, never a silent divergence. */
public class BadDataTest extends ZkIonTestSupport {
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @Test(timeout = 120_000) public void corruptLogEntryIsReportedByName() throws Exception {
        Ignite s1 = start(config("s1", false).setGridLogger(new Capturing()));
        Ignite s2 = start(config("s2", false).setGridLogger(new Capturing()));

        String planted;

        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            planted = foreign.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(root + "/log/e-", "ZK\u0001\u0001this is not zlib".getBytes());
        }

        String path = planted;

        await("an error naming " + path, 30_000, () -> errors.stream().anyMatch(m -> m.contains(path)));
        assertTrue(errors.toString(), errors.stream().anyMatch(m -> m.contains("Corrupt event log entry")));

        // The nodes did not carry on with a view that silently skipped an entry: they left the cluster.
        await("nodes stopped", 60_000, () -> Ignition.state(s1.name()) != IgniteState.STARTED
            && Ignition.state(s2.name()) != IgniteState.STARTED);
    }

    /** An entry in an Ion format version this release does not know: refused by name, as a newer node's would be. */
    @Test(timeout = 120_000) public void unknownFormatVersionInTheLogIsReportedByName() throws Exception {
        plantAndExpect(new byte[] {'Z', 'K', 99, 1, 0x78, (byte)0x9c, 3, 0, 0, 0, 0, 1}, 0,
            "format version 99");
    }

    /** A well-formed entry cut in half, as a torn write or a hand-made copy would leave it. */
    @Test(timeout = 120_000) public void truncatedLogEntryIsReportedByName() throws Exception {
        plantAndExpect(null, 0, "Truncated zlib stream");
    }

    /** A zip bomb: a few KB that inflate to 64 MB, against nodes that allow 1 MB. Refused, without running out of memory. */
    @Test(timeout = 120_000) public void zipBombInTheLogIsReportedByName() throws Exception {
        java.io.ByteArrayOutputStream bomb = new java.io.ByteArrayOutputStream();

        bomb.write(new byte[] {'Z', 'K', 2, 1});

        try (java.util.zip.DeflaterOutputStream z = new java.util.zip.DeflaterOutputStream(bomb)) {
            byte[] zeros = new byte[1 << 20];

            for (int i = 0; i < 64; i++)
                z.write(zeros);
        }

        plantAndExpect(bomb.toByteArray(), 1 << 20, "inflates to more than the limit of 1048576 bytes");
    }

    /**
     * Starts two servers, plants {@code data} as the next log entry (null: the first half of a well-formed one),
     * and waits for an error naming the planted znode, containing {@code expected}, and for both nodes to leave.
     */
    private void plantAndExpect(byte[] data, long maxInflated, String expected) throws Exception {
        java.util.function.Function<String, org.apache.ignite.configuration.IgniteConfiguration> cfg = name -> {
            org.apache.ignite.configuration.IgniteConfiguration c = config(name, false).setGridLogger(new Capturing());

            if (maxInflated > 0)
                ((ZkIonDiscoverySpi)c.getDiscoverySpi()).setMaxInflatedBytes(maxInflated);

            return c;
        };
        Ignite s1 = start(cfg.apply("s1"));
        Ignite s2 = start(cfg.apply("s2"));

        String planted;

        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();

            byte[] bytes = data;

            // Built here, not read from the log: the coordinator may trim the newest entry between a listing and a read.
            if (bytes == null) {
                byte[] whole = wellFormedJoinEntry(foreign, java.util.UUID.randomUUID());

                bytes = java.util.Arrays.copyOf(whole, whole.length / 2);
            }

            planted = foreign.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(root + "/log/e-", bytes);
        }

        String path = planted;

        await("an error naming " + path, 30_000, () -> errors.stream().anyMatch(m -> m.contains(path)
            && m.contains(expected)));
        await("nodes stopped", 60_000, () -> Ignition.state(s1.name()) != IgniteState.STARTED
            && Ignition.state(s2.name()) != IgniteState.STARTED);
    }

    /** A join event naming a data znode that is not there: members stop and say which, never skip the join. */
    @Test(timeout = 120_000) public void joinWithoutItsDataZnodeIsReportedByName() throws Exception {
        Ignite s1 = start(config("s1", false).setGridLogger(new Capturing()));
        Ignite s2 = start(config("s2", false).setGridLogger(new Capturing()));
        java.util.UUID ghost = java.util.UUID.randomUUID();

        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            foreign.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(root + "/log/e-",
                wellFormedJoinEntry(foreign, ghost));
        }

        String missing = root + "/nodes/" + ghost;

        await("an error naming " + missing, 30_000, () -> errors.stream().anyMatch(m -> m.contains(missing)));
        await("nodes stopped", 60_000, () -> Ignition.state(s1.name()) != IgniteState.STARTED
            && Ignition.state(s2.name()) != IgniteState.STARTED);
    }

    @Test(timeout = 60_000) public void stockLayoutUnderTheRootIsRefused() throws Exception {
        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            foreign.create().creatingParentsIfNeeded().forPath(root + "/e");
        }

        try {
            start("s1");
            org.junit.Assert.fail("Started on a root holding the stock SPI's znodes");
        }
        catch (Exception e) {
            assertTrue(JoinTest.messages(e), JoinTest.messages(e).contains("stock ZookeeperDiscoverySpi"));
        }

        try (CuratorFramework foreign = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            foreign.start();
            // Checked before anything is written: the foreign root is left as it was.
            org.junit.Assert.assertEquals(java.util.Collections.singletonList("e"), foreign.getChildren().forPath(root));
        }
    }

    /**
     * A joiner (played here by a bare client) whose data znode is not what it should be: the coordinator refuses
     * the join, and the answer names the znode. Then a real node still joins.
     */
    @Test(timeout = 120_000) public void corruptDataZnodeRefusesTheJoinByName() throws Exception {
        Ignite s1 = start("s1");
        io.zkion.discovery.codec.msg.ControlCodec codec =
            new io.zkion.discovery.codec.msg.ControlCodec(io.zkion.discovery.codec.zip.StreamingZip.defaults());
        java.util.UUID id = java.util.UUID.randomUUID();

        try (CuratorFramework joiner = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            joiner.start();
            joiner.create().forPath(root + "/nodes/" + id, "ZK\u0001\u0001truncated".getBytes());
            joiner.create().withMode(CreateMode.EPHEMERAL).forPath(root + "/join/" + id,
                codec.encode(new io.zkion.discovery.codec.msg.JoinRequest(id, false, List.of("ion-2", "ion-1"), null, null, null)));
            joiner.create().withMode(CreateMode.EPHEMERAL).forPath(root + "/alive/" + id,
                codec.encode(new io.zkion.discovery.codec.msg.AliveInfo(false, List.of("ion-2", "ion-1"), 0)));

            String answer = root + "/joined/" + id;

            await("an answer", 30_000, () -> exists(joiner, answer));

            io.zkion.discovery.codec.msg.JoinResult r = codec.decodeJoinResult(joiner.getData().forPath(answer), answer);

            assertTrue(!r.ok());
            assertTrue(r.rejection, r.rejection.contains(root + "/nodes/" + id));
            // Removed right after the refusal is committed, apart from it.
            await("the refused joiner's data znode removed", 10_000, () -> !exists(joiner, root + "/nodes/" + id));
        }

        start("s2");
        await("2 nodes", 30_000, () -> s1.cluster().nodes().size() == 2);
    }

    /** A log entry as the coordinator would write it: {@code id} joins at the next topology version. */
    private byte[] wellFormedJoinEntry(CuratorFramework foreign, java.util.UUID id) throws Exception {
        io.zkion.discovery.codec.zip.StreamingZip zip = io.zkion.discovery.codec.zip.StreamingZip.defaults();
        io.zkion.discovery.codec.msg.ClusterState state = new io.zkion.discovery.codec.msg.ControlCodec(zip)
            .decodeState(foreign.getData().forPath(root + "/state"), "state");
        byte[] record = io.zkion.discovery.codec.ion.NodeRecord.byReference(id, state.topVer + 1, false).encode();
        io.zkion.discovery.codec.event.EventBatch entry = new io.zkion.discovery.codec.event.EventBatch(state.clusterId,
            state.topVer + 1, 0, List.of(io.zkion.discovery.codec.event.DiscoveryEvent.joined(0, state.topVer + 1, id,
                new io.zkion.discovery.codec.ion.JoinedEventData(record, null).encode())));

        return new io.zkion.discovery.codec.ion.IonEventFormat(zip, io.zkion.discovery.codec.event.FormatId.ION_2).encode(entry);
    }

    private static boolean exists(CuratorFramework c, String path) {
        try {
            return c.checkExists().forPath(path) != null;
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Keeps errors; prints warnings and errors to the test output. */
    private final class Capturing extends NullLogger {
        @Override public void warning(String msg, Throwable e) {
            System.out.println("WARN " + msg);
        }

        @Override public void error(String msg, Throwable e) {
            System.out.println("ERROR " + msg);
            errors.add(msg);
        }

        @Override public void error(String marker, String msg, Throwable e) {
            errors.add(msg);
        }

        @Override public IgniteLogger getLogger(Object ctgr) {
            return this;
        }
    }
}
