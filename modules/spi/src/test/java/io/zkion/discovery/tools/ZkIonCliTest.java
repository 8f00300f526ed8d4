package io.zkion.discovery.tools;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import com.amazon.ion.IonStruct;
import com.amazon.ion.IonSystem;
import com.amazon.ion.system.IonSystemBuilder;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * zkion-cli as a script sees it: an exit code per kind of failure, errors as JSON with {@code --json}, and a status
 * that is unhealthy when a join waits past its timeout or fewer servers are in than expected. The cluster is written
 * by hand, as the SPI writes it, so that each case is exactly what the test says.
 */
public class ZkIonCliTest {
    private static final IonSystem ION = IonSystemBuilder.standard().build();
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());
    private static final UUID CRD = new UUID(1, 1);
    private static final UUID OLD = new UUID(1, 2);

    private TestingServer zk;
    private CuratorFramework c;
    private String out;
    private String err;

    @Before public void start() throws Exception {
        zk = new TestingServer(true);
        c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
        c.start();
        c.blockUntilConnected();
    }

    @After public void stop() throws Exception {
        c.close();
        zk.close();
    }

    /** Runs the CLI in this JVM, keeping what it printed. */
    private int cli(String... args) {
        CliRun r = CliRun.of(args);

        out = r.out;
        err = r.err;

        return r.code;
    }

    /** A cluster of one server, the coordinator, under {@code root}; its gate open or closed. */
    private void cluster(String root, boolean gateOpen) throws Exception {
        c.create().creatingParentsIfNeeded().forPath(root + "/state",
            CODEC.encode(new ClusterState(new UUID(9, 9), 1, 3, 3, "ion-2", CRD)));
        c.create().forPath(root + "/gate", CODEC.encode(new GateState(gateOpen, "ion-2")));
        c.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(root + "/alive/" + CRD, CODEC.encode(new AliveInfo(false, List.of("ion-2"), 3, "db-1.example",
                "10.0.0.5:47500", 1, "0.2.0")));
        c.create().withMode(CreateMode.EPHEMERAL).forPath(root + "/alive/" + OLD, // A node of 0.1.0, its record bare.
            CODEC.encode(new AliveInfo(false, List.of("ion-1"), 3)));
        c.create().creatingParentsIfNeeded().forPath(root + "/join/placeholder");
        c.delete().forPath(root + "/join/placeholder");
        c.create().creatingParentsIfNeeded().forPath(root + "/log/e0-0000000003");
    }

    private static IonStruct json(String s) {
        return (IonStruct)ION.singleValue(s);
    }

    @Test(timeout = 60_000) public void eachFailureHasItsOwnExitCodeAndJsonError() throws Exception {
        assertEquals(ExitCode.USAGE, cli("status"));
        assertTrue(err, err.contains("--zk"));
        assertEquals(ExitCode.USAGE, cli("status", "--zk", zk.getConnectString(), "--bogus", "--json"));
        assertEquals("usage", ((com.amazon.ion.IonText)((IonStruct)json(out).get("error")).get("kind")).stringValue());

        int freePort;

        try (ServerSocket s = new ServerSocket(0)) {
            freePort = s.getLocalPort();
        }

        assertEquals(ExitCode.ZOOKEEPER_UNREACHABLE, cli("status", "--zk", "127.0.0.1:" + freePort, "--connect-timeout", "1000"));
        assertTrue(err, err.startsWith("zkion-cli: No ZooKeeper server answered at 127.0.0.1:" + freePort));
        assertEquals(ExitCode.ZOOKEEPER_UNREACHABLE,
            cli("status", "--zk", "127.0.0.1:" + freePort, "--connect-timeout", "1000", "--json"));
        IonStruct e = json(out);
        assertEquals(ExitCode.ZOOKEEPER_UNREACHABLE, ((com.amazon.ion.IonInt)e.get("exitCode")).intValue());
        assertEquals("zookeeper-unreachable", ((com.amazon.ion.IonText)((IonStruct)e.get("error")).get("kind")).stringValue());

        assertEquals(ExitCode.NO_CLUSTER, cli("status", "--zk", zk.getConnectString(), "--root", "/nothing"));
        assertTrue(out, out.startsWith("no cluster under /nothing"));

        // A root only its creator may read: the wrong credentials, or none, are refused.
        try (CuratorFramework owner = CuratorFrameworkFactory.builder().connectString(zk.getConnectString())
            .retryPolicy(new RetryOneTime(100)).authorization("digest", "ops:right".getBytes(StandardCharsets.UTF_8))
            .build()) {
            owner.start();
            owner.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath("/secure/state",
                CODEC.encode(new ClusterState(new UUID(9, 9), 1, 3, 3, "ion-2", CRD)));
        }

        assertEquals(ExitCode.AUTH_REFUSED, cli("status", "--zk", zk.getConnectString(), "--root", "/secure",
            "--auth", "ops:wrong"));
        assertEquals(ExitCode.AUTH_REFUSED, cli("status", "--zk", zk.getConnectString(), "--root", "/secure", "--json"));
        assertEquals("auth-refused", ((com.amazon.ion.IonText)((IonStruct)json(out).get("error")).get("kind")).stringValue());
        assertTrue(out, !out.contains("ops:"));

        assertEquals(0, cli("--version"));
        assertTrue(out, out.contains("ZkIon Discovery ") && out.contains(" for Apache Ignite 2.1"));
    }

    @Test(timeout = 60_000) public void aJoinPastItsTimeoutOrTooFewServersIsUnhealthy() throws Exception {
        cluster("/c", false);

        String[] base = {"status", "--zk", zk.getConnectString(), "--root", "/c"};

        assertEquals(ExitCode.HEALTHY, cli(base));
        assertTrue(out, out.contains("healthy") && out.contains("none pending") && out.contains("gate           CLOSED for ")
            && out.contains("the oldest written "));

        // Who each node is, in join order: the coordinator first, with its host, consistent id and release.
        assertTrue(out, out.contains("coordinator    " + CRD + " (db-1.example 10.0.0.5:47500 0.2.0)"));
        assertTrue(out, out.indexOf("#1 ") < out.indexOf("#? ") && out.contains("db-1.example 10.0.0.5:47500 0.2.0")
            && out.contains("? release<0.2"));

        assertEquals(ExitCode.UNHEALTHY, cli(concat(base, "--expect-servers", "3")));
        assertTrue(out, out.contains("2 server(s) in the cluster, 3 expected"));

        UUID joiner = new UUID(2, 2);

        c.create().forPath("/c/join/" + joiner);
        Thread.sleep(1_100); // Past a join timeout of 1 s: ZooKeeper's clock and this one agree here.

        assertEquals(ExitCode.HEALTHY, cli(base)); // The default: 60 s.
        assertTrue(out, out.contains("1 pending, the oldest " + joiner));
        assertEquals(ExitCode.UNHEALTHY, cli(concat(base, "--join-timeout", "1000")));
        assertTrue(out, out.contains("UNHEALTHY: the join of " + joiner + " has waited 1 s, past the join timeout of 1 s"));

        assertEquals(ExitCode.UNHEALTHY, cli(concat(base, "--join-timeout", "1000", "--json")));
        IonStruct st = json(out);
        assertEquals(ExitCode.UNHEALTHY, ((com.amazon.ion.IonInt)st.get("exitCode")).intValue());
        assertEquals("false", st.get("healthy").toString());
        assertEquals(1, ((com.amazon.ion.IonList)st.get("problems")).size());
        IonStruct join = (IonStruct)((com.amazon.ion.IonList)st.get("joins")).get(0);
        assertEquals(joiner.toString(), ((com.amazon.ion.IonText)join.get("name")).stringValue());
        assertTrue(((com.amazon.ion.IonInt)join.get("ageMs")).longValue() >= 1_000);
        assertEquals("false", ((IonStruct)st.get("gate")).get("open").toString());
        assertEquals(1, ((com.amazon.ion.IonInt)((IonStruct)st.get("log")).get("entries")).intValue());
        IonStruct alive = (IonStruct)((com.amazon.ion.IonList)st.get("alive")).get(0);
        assertEquals(CRD.toString(), ((com.amazon.ion.IonText)alive.get("id")).stringValue());
        assertEquals(3, ((com.amazon.ion.IonInt)alive.get("ack")).intValue());
        assertEquals(1, ((com.amazon.ion.IonInt)alive.get("order")).intValue());
        assertEquals("db-1.example", ((com.amazon.ion.IonText)alive.get("host")).stringValue());
        assertEquals("10.0.0.5:47500", ((com.amazon.ion.IonText)alive.get("consistentId")).stringValue());
        assertEquals("0.2.0", ((com.amazon.ion.IonText)alive.get("release")).stringValue());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);

        System.arraycopy(b, 0, out, a.length, b.length);

        return out;
    }
}
