package io.zkion.discovery.examples;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import com.amazon.ion.IonList;
import com.amazon.ion.IonStruct;
import com.amazon.ion.IonSystem;
import com.amazon.ion.system.IonSystemBuilder;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * {@code config/zkion-cli.sh} against a live cluster of two, with the {@code -all} jar alone on its class path (no
 * ignite-core): status and its exit codes, the dump as Ion text and as JSON, with class names in place of blobs.
 */
public class CliTest {
    private static final IonSystem ION = IonSystemBuilder.standard().build();

    private static TestingServer zk;
    private static Ignite first;

    @BeforeClass public static void startCluster() throws Exception {
        zk = new TestingServer(true);
        System.setProperty("zkion.zk", zk.getConnectString());
        System.setProperty("zkion.root", "/cli-test");
        System.setProperty("zkion.name", "cli-1");
        first = Ignition.start("config/zkion-server.xml");
        System.setProperty("zkion.name", "cli-2");
        Ignition.start("config/zkion-server.xml");
    }

    @AfterClass public static void stopCluster() throws Exception {
        Ignition.stopAll(true);
        System.clearProperty("zkion.zk");
        System.clearProperty("zkion.root");
        System.clearProperty("zkion.name");
        zk.close();
    }

    @Test(timeout = 60_000) public void statusOfAHealthyCluster() throws Exception {
        Run r = cli("status", "--zk", zk.getConnectString(), "--root", "/cli-test");

        assertEquals(r.out, 0, r.exit);
        assertTrue(r.out, r.out.contains("healthy") && !r.out.contains("UNHEALTHY"));
        assertTrue(r.out, r.out.contains("coordinator    " + first.cluster().localNode().id()));
        assertTrue(r.out, r.out.contains("2 alive (2 servers)"));
        // Who each node is, from its own alive record: order, host, release.
        assertTrue(r.out, r.out.contains("#1 ") && r.out.contains("#2 ")
            && r.out.contains(" " + io.zkion.discovery.config.BuildInfo.release() + " "));
        assertFalse("no slf4j notice: " + r.err, r.err.contains("SLF4J"));

        IonStruct json = (IonStruct)ION.singleValue(cli("status", "--json", "--zk", zk.getConnectString(), "--root",
            "/cli-test").out);

        assertEquals("true", json.get("healthy").toString());
        assertEquals(2, ((IonList)json.get("alive")).size());
    }

    @Test(timeout = 60_000) public void statusWithoutACluster() throws Exception {
        Run none = cli("status", "--zk", zk.getConnectString(), "--root", "/nothing-here");

        assertEquals(none.out, 2, none.exit);
        assertTrue(none.out, none.out.contains("no cluster under /nothing-here"));

        Run noZk = cli("status", "--zk", "127.0.0.1:1", "--connect-timeout", "1000");

        assertEquals(3, noZk.exit);
        assertTrue(noZk.err, noZk.err.contains("No ZooKeeper server answered at 127.0.0.1:1"));

        // JAVA_OPTS reaches the JVM: ZooKeeper's TLS client settings, against a server with no TLS port, find none.
        Run tls = cliWith(Map.of("JAVA_OPTS", "-Dzookeeper.client.secure=true"
            + " -Dzookeeper.clientCnxnSocket=io.zkion.shaded.zookeeper.ClientCnxnSocketNetty"),
            "status", "--zk", zk.getConnectString(), "--root", "/nothing-here", "--connect-timeout", "2000");

        assertEquals(tls.err, 3, tls.exit);

        // A state whose coordinator is not alive under its root: unhealthy, and saying why.
        try (org.apache.curator.framework.CuratorFramework c = org.apache.curator.framework.CuratorFrameworkFactory
            .newClient(zk.getConnectString(), new org.apache.curator.retry.RetryOneTime(100))) {
            c.start();
            c.create().creatingParentsIfNeeded().forPath("/cli-dead/state", c.getData().forPath("/cli-test/state"));
        }

        Run dead = cli("status", "--zk", zk.getConnectString(), "--root", "/cli-dead");

        assertEquals(dead.out, 1, dead.exit);
        assertTrue(dead.out, dead.out.contains("UNHEALTHY") && dead.out.contains("is not alive")
            && dead.out.contains("no server node is alive"));

        Run badAuth = cli("status", "--zk", zk.getConnectString(), "--auth-file", "/nonexistent/creds");

        assertEquals(5, badAuth.exit);
        assertTrue(badAuth.err, badAuth.err.contains("/nonexistent/creds"));
    }

    @Test(timeout = 60_000) public void dumpAsIonAndAsJson() throws Exception {
        Run ion = cli("dump", "--zk", zk.getConnectString(), "--root", "/cli-test");

        assertEquals(ion.err, 0, ion.exit);
        assertTrue(ion.out, ion.out.contains("// /cli-test/state"));
        assertTrue("class names, not base64: " + ion.out, ion.out.contains("java io.zkion.discovery"));

        Run json = cli("dump", "--json", "--zk", zk.getConnectString(), "--root", "/cli-test");
        IonStruct all = (IonStruct)ION.singleValue(json.out);

        assertEquals(0, json.exit);
        assertTrue(json.out, all.containsKey("/cli-test/state") && all.containsKey("/cli-test/gate"));
        assertEquals("/cli-test", ((com.amazon.ion.IonText)all.get("root")).stringValue());
    }

    private static final class Run {
        int exit;
        String out;
        String err;
    }

    private static Run cli(String... args) throws Exception {
        return cliWith(Map.of(), args);
    }

    private static Run cliWith(Map<String, String> env, String... args) throws Exception {
        File[] jars = new File("modules/spi/target").listFiles((d, n) -> n.startsWith("zkion-discovery-") && n.endsWith("-all.jar"));

        assertTrue("the -all jar is built", jars != null && jars.length == 1);

        List<String> cmd = new ArrayList<>(List.of("bash", "config/zkion-cli.sh"));

        cmd.addAll(Arrays.asList(args));

        ProcessBuilder pb = new ProcessBuilder(cmd);

        pb.environment().put("ZKION_JAR", jars[0].getPath());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);

        File out = File.createTempFile("cli", ".out");
        File err = File.createTempFile("cli", ".err");
        Process p = pb.redirectOutput(out).redirectError(err).start();

        assertTrue("zkion-cli ended", p.waitFor(45, TimeUnit.SECONDS));

        Run r = new Run();

        r.exit = p.exitValue();
        r.out = new String(java.nio.file.Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8);
        r.err = new String(java.nio.file.Files.readAllBytes(err.toPath()), StandardCharsets.UTF_8);

        return r;
    }
}
