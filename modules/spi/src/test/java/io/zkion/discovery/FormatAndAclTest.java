package io.zkion.discovery;

import java.nio.charset.StandardCharsets;
import java.util.List;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.tools.IonStateDump;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.zookeeper.KeeperException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The cluster writes the best format every node reads, and ACLs keep strangers out. */
public class FormatAndAclTest extends ZkIonTestSupport {
    private final ControlCodec codec = new ControlCodec(StreamingZip.defaults());

    /** A node that reads only the JDK format holds the cluster there; once it is gone, the cluster writes Ion. */
    @Test(timeout = 180_000) public void clusterFormatFollowsWhatEveryNodeReads() throws Exception {
        Ignite s1 = start("s1");

        assertEquals("ion-2", state().format);

        Ignite old = start(config("old", false).setDiscoverySpi(spi().setEventFormats("jdk-zlib")));

        s1.getOrCreateCache("switch-1"); // A custom event: written in the format every node reads.
        await("format jdk-zlib", 10_000, () -> "jdk-zlib".equals(stateQuietly()));
        assertTrue(old.cacheNames().contains("switch-1"));

        Ignition.stop(old.name(), true);

        s1.getOrCreateCache("switch-2");
        await("format ion-2", 10_000, () -> "ion-2".equals(stateQuietly()));

        Ignite s3 = start("s3");

        assertTrue(s3.cacheNames().containsAll(java.util.List.of("switch-1", "switch-2")));

        try (CuratorFramework c = newClient(null)) {
            String dump = new IonStateDump(c, root).dump();

            assertTrue(dump, dump.contains("format:\"ion-2\"") && dump.contains("/alive: 2 node(s)"));
            // s1 and s3 joined by reference (the JDK-only node did not); their data znodes show the node's class and
            // size, not base64.
            assertTrue(dump, dump.contains("/nodes: 2 node(s)") && dump.contains("java io.zkion.discovery.internal.ZkIonClusterNode"));
        }
    }

    @Test(timeout = 120_000) public void digestAuthMakesZnodesCreatorOnly() throws Exception {
        // The same credentials, the second time from a file, as an operator keeps them out of the XML.
        java.nio.file.Path file = java.nio.file.Files.createTempFile("zkion-digest", ".txt");

        java.nio.file.Files.write(file, "ignite:secret\n".getBytes(StandardCharsets.UTF_8));
        file.toFile().deleteOnExit();

        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setZkDigestAuth("ignite:secret")));
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi().setZkDigestAuth("file:" + file)));

        await("2 nodes", 10_000, () -> s1.cluster().nodes().size() == 2 && s2.cluster().nodes().size() == 2);

        try (CuratorFramework stranger = newClient(null)) {
            stranger.getData().forPath(root + "/state");
            fail("A client without credentials read the cluster state");
        }
        catch (KeeperException.NoAuthException expected) {
            // Creator-only ACL.
        }

        try (CuratorFramework owner = newClient("ignite:secret"); CuratorFramework stranger = newClient("who:ever")) {
            assertEquals(2, owner.getChildren().forPath(root + "/alive").size());

            // Every znode the nodes made is the cluster identity's alone, and a stranger can change nothing anywhere.
            String ownerId = io.zkion.discovery.config.ZnodeAcls.digest("ignite:secret");
            java.util.Deque<String> todo = new java.util.ArrayDeque<>(List.of(root));
            int znodes = 0;

            while (!todo.isEmpty()) {
                String path = todo.pop();
                List<org.apache.zookeeper.data.ACL> acl = owner.getACL().forPath(path);

                assertEquals(path + ": " + acl, 1, acl.size());
                assertEquals(path, org.apache.zookeeper.ZooDefs.Perms.ALL, acl.get(0).getPerms());
                assertEquals(path, ownerId, acl.get(0).getId().getId());
                znodes++;

                for (String child : owner.getChildren().forPath(path)) {
                    todo.push(path + "/" + child);

                    try {
                        stranger.setData().forPath(path + "/" + child, new byte[] {1});
                        fail("A stranger rewrote " + path + "/" + child);
                    }
                    catch (KeeperException.NoAuthException expected) {
                        // Creator-only.
                    }
                }

                for (Call attempt : List.<Call>of(
                    () -> stranger.create().forPath(path + "/planted", new byte[] {1}),
                    () -> stranger.delete().forPath(path + "/planted"))) {
                    try {
                        attempt.run();
                        fail("A stranger created or deleted under " + path);
                    }
                    catch (KeeperException.NoAuthException expected) {
                        // The parent's CREATE and DELETE are the cluster identity's.
                    }
                }
            }

            assertTrue("znodes checked: " + znodes, znodes > 10);
        }
    }

    /** A ZooKeeper call a stranger attempts. */
    private interface Call {
        void run() throws Exception;
    }

    /**
     * A monitoring identity given read access with {@code zkReadAccess}: zkion-cli reads the status with it, and it can
     * neither write nor delete; a client without credentials still reads nothing.
     */
    @Test(timeout = 120_000) public void aReadOnlyIdentityReadsTheStatusAndChangesNothing() throws Exception {
        String readAccess = "digest:" + io.zkion.discovery.config.ZnodeAcls.digest("monitor:watch");
        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi().setZkDigestAuth("ignite:secret")
            .setZkReadAccess(readAccess)));
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi().setZkDigestAuth("ignite:secret")
            .setZkReadAccess(readAccess)));

        await("2 nodes", 10_000, () -> s1.cluster().nodes().size() == 2 && s2.cluster().nodes().size() == 2);

        assertEquals(0, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"status", "--zk", zk.getConnectString(),
            "--root", root, "--auth", "monitor:watch", "--expect-servers", "2"}));
        assertEquals(4, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"status", "--zk", zk.getConnectString(),
            "--root", root}));
        // Evicting needs the cluster's own credentials: the read-only identity is refused.
        assertEquals(4, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"evict", "--zk", zk.getConnectString(),
            "--root", root, "--auth", "monitor:watch", "--node", s2.cluster().localNode().id().toString()}));
        // And so is a client without credentials.
        assertEquals(4, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"evict", "--zk", zk.getConnectString(),
            "--root", root, "--node", s2.cluster().localNode().id().toString()}));
        assertEquals("nobody evicted", 2, s1.cluster().nodes().size());

        try (CuratorFramework monitor = newClient("monitor:watch")) {
            // A join request it may not read (where a joiner's credentials travel) is shown as refused, not fatal:
            // on a root of its own, which no coordinator answers meanwhile.
            try (CuratorFramework owner = newClient("ignite:secret")) {
                owner.create().creatingParentsIfNeeded().withACL(new io.zkion.discovery.config.ZnodeAcls(root + "-d",
                    readAccess).getAclForPath(root + "-d/join/x")).forPath(root + "-d/join/" + java.util.UUID.randomUUID(),
                    new byte[] {1});
            }

            String dump = new IonStateDump(monitor, root + "-d").dump();

            assertTrue(dump, dump.contains("refused: these credentials may not read it"));

            String alive = root + "/alive/" + s2.cluster().localNode().id();

            assertEquals(2, monitor.getChildren().forPath(root + "/alive").size());

            try {
                monitor.setData().forPath(root + "/state", new byte[] {1});
                fail("The read-only identity wrote the state");
            }
            catch (KeeperException.NoAuthException expected) {
                // Read only.
            }

            try {
                monitor.delete().forPath(alive);
                fail("The read-only identity deleted an alive znode");
            }
            catch (KeeperException.NoAuthException expected) {
                // Delete needs the parent's DELETE.
            }
        }

        // The cluster's own credentials evict: s2 fails out of s1's topology.
        java.util.UUID id2 = s2.cluster().localNode().id();

        assertEquals(0, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"evict", "--zk", zk.getConnectString(),
            "--root", root, "--auth", "ignite:secret", "--node", id2.toString()}));
        await("s2 evicted", 30_000, () -> s1.cluster().node(id2) == null);
    }

    private ClusterState state() throws Exception {
        try (CuratorFramework c = newClient(null)) {
            return codec.decodeState(c.getData().forPath(root + "/state"), "state");
        }
    }

    private String stateQuietly() {
        try {
            return state().format;
        }
        catch (Exception e) {
            return null;
        }
    }

    private CuratorFramework newClient(String digest) {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(zk.getConnectString())
            .retryPolicy(new RetryOneTime(100));

        if (digest != null)
            b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));

        CuratorFramework c = b.build();

        c.start();

        return c;
    }
}
