package io.zkion.discovery;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.IgniteEx;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * TLS to ZooKeeper as an operator sets it up: a server with a secure client port (Netty) and a certificate made here
 * with the JDK's keytool, and nodes configured by ZooKeeper's own client properties ({@code zookeeper.client.secure},
 * the Netty client socket, a keystore and a truststore). The SPI reads them through the client config it builds.
 * Mutual TLS: both sides present the certificate and trust it.
 */
public class ZooKeeperTlsTest extends ZkIonTestSupport {
    private static final String PASSWORD = "zkion-test";

    /** The client properties this test sets, cleared after it: they are JVM-wide. */
    private static final String[] CLIENT_PROPERTIES = {"zookeeper.client.secure", "zookeeper.clientCnxnSocket",
        "zookeeper.ssl.keyStore.location", "zookeeper.ssl.keyStore.password", "zookeeper.ssl.trustStore.location",
        "zookeeper.ssl.trustStore.password"};

    private File dir;
    private TestingServer tlsZk;
    private int securePort;

    @Before public void startTlsServer() throws Exception {
        dir = Files.createTempDirectory("zkion-tls").toFile();

        File keyStore = new File(dir, "zk.p12");
        File trustStore = new File(dir, "trust.p12");

        keytool(keyStore, trustStore);

        try (ServerSocket s = new ServerSocket(0)) {
            securePort = s.getLocalPort();
        }

        Map<String, Object> props = new HashMap<>();

        props.put("secureClientPort", String.valueOf(securePort));
        props.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
        props.put("ssl.keyStore.location", keyStore.getAbsolutePath());
        props.put("ssl.keyStore.password", PASSWORD);
        props.put("ssl.trustStore.location", trustStore.getAbsolutePath());
        props.put("ssl.trustStore.password", PASSWORD);

        tlsZk = new TestingServer(new InstanceSpec(new File(dir, "data"), -1, -1, -1, true, -1, -1, -1, props,
            "127.0.0.1"), true);
    }

    /** The nodes first, as the base class stops them: they hold sessions on this server. */
    @After @Override public void stopAll() throws Exception {
        super.stopAll();

        for (String p : CLIENT_PROPERTIES)
            System.clearProperty(p);

        if (tlsZk != null)
            tlsZk.close();
    }

    @Test(timeout = 120_000) public void nodesFormAClusterOverTls() throws Exception {
        File keyStore = new File(dir, "zk.p12");
        File trustStore = new File(dir, "trust.p12");

        System.setProperty("zookeeper.client.secure", "true");
        System.setProperty("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        System.setProperty("zookeeper.ssl.keyStore.location", keyStore.getAbsolutePath());
        System.setProperty("zookeeper.ssl.keyStore.password", PASSWORD);
        System.setProperty("zookeeper.ssl.trustStore.location", trustStore.getAbsolutePath());
        System.setProperty("zookeeper.ssl.trustStore.password", PASSWORD);

        Ignite s1 = start(overTls("s1", false));
        Ignite c1 = start(overTls("c1", true));

        await("2 nodes", 30_000, () -> s1.cluster().nodes().size() == 2 && c1.cluster().nodes().size() == 2);

        List<String> got = CustomMessageTest.pingsAndAcks(s1);

        ((IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("over tls"));
        await("delivered with its ack", 30_000, () -> got.size() == 2);
        assertEquals(List.of("ping over tls", "ack over tls"), got);

        assertTrue("the SPI's znodes are on the TLS server", tlsZk.getConnectString() != null
            && spiOf(s1).getZkConnectionString().endsWith(":" + securePort));
    }

    /**
     * The same TLS set on each node's SPI ({@code zkClientProperties}) in place of JVM-wide system properties: the
     * nodes of one JVM may differ, and a JVM that also talks to another ZooKeeper keeps its own settings. The Netty
     * socket is named as ZooKeeper names it, in either jar. The passwords are not shown.
     */
    @Test(timeout = 120_000) public void tlsSetPerNodeNeedsNoSystemProperties() throws Exception {
        java.util.Properties tls = new java.util.Properties();

        tls.setProperty("zookeeper.client.secure", "true");
        tls.setProperty("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        tls.setProperty("zookeeper.ssl.keyStore.location", new File(dir, "zk.p12").getAbsolutePath());
        tls.setProperty("zookeeper.ssl.keyStore.password", PASSWORD);
        tls.setProperty("zookeeper.ssl.trustStore.location", new File(dir, "trust.p12").getAbsolutePath());
        tls.setProperty("zookeeper.ssl.trustStore.password", PASSWORD);

        // The test server sets its key and trust stores JVM-wide, where a client finds them too; the switches to TLS
        // it does not set, so the node reaches the secure port only with its own.
        for (String p : new String[] {"zookeeper.client.secure", "zookeeper.clientCnxnSocket"})
            assertTrue(p + " is not set JVM-wide", System.getProperty(p) == null);

        IgniteConfiguration s1Cfg = overTls("s1", false);
        IgniteConfiguration c1Cfg = overTls("c1", true);

        ((ZkIonDiscoverySpi)s1Cfg.getDiscoverySpi()).setZkClientProperties(tls);
        ((ZkIonDiscoverySpi)c1Cfg.getDiscoverySpi()).setZkClientProperties(tls);

        Ignite s1 = start(s1Cfg);
        Ignite c1 = start(c1Cfg);

        await("2 nodes", 30_000, () -> s1.cluster().nodes().size() == 2 && c1.cluster().nodes().size() == 2);

        String shown = spiOf(s1).toString();

        assertTrue(shown, shown.contains("zookeeper.client.secure=true") && !shown.contains("=" + PASSWORD)
            && shown.contains("zookeeper.ssl.keyStore.password=****"));

        // The node's own settings win over the JVM's: its wrong trust store password fails it, where the JVM's is right.
        java.util.Properties wrong = (java.util.Properties)tls.clone();

        wrong.setProperty("zookeeper.ssl.trustStore.password", "not-" + PASSWORD);

        IgniteConfiguration s2Cfg = overTls("s2", false);

        ((ZkIonDiscoverySpi)s2Cfg.getDiscoverySpi()).setZkClientProperties(wrong).setJoinTimeout(10_000);

        try {
            start(s2Cfg);
            fail("Connected with a wrong trust store password");
        }
        catch (Exception e) {
            String all = causes(e);

            assertTrue(all, all.contains("cannot connect to ZooKeeper at '127.0.0.1:" + securePort + "'"));
        }
    }

    /** The secure port speaks only TLS: a node without the client properties cannot connect, and says where. */
    @Test(timeout = 120_000) public void aNodeWithoutTlsCannotConnectToTheSecurePort() {
        try {
            start(overTls("s1", false));
            fail("A plain client connected to the secure port");
        }
        catch (Exception e) {
            String all = causes(e);

            assertTrue(all, all.contains("cannot connect to ZooKeeper at '127.0.0.1:" + securePort + "'"));
        }
    }

    private IgniteConfiguration overTls(String name, boolean client) {
        IgniteConfiguration cfg = config(name, client);

        ((ZkIonDiscoverySpi)cfg.getDiscoverySpi()).setZkConnectionString("127.0.0.1:" + securePort);

        return cfg;
    }

    private static String causes(Throwable e) {
        StringBuilder sb = new StringBuilder();

        for (Throwable t = e; t != null; t = t.getCause())
            sb.append(t.getMessage()).append(" / ");

        return sb.toString();
    }

    /**
     * A self-signed certificate for 127.0.0.1 with its key in a PKCS12 key store, and the certificate alone, as a
     * trusted entry, in a trust store: a key entry does not count as a trust anchor.
     */
    private static void keytool(File keyStore, File trustStore) throws Exception {
        File cert = new File(keyStore.getParentFile(), "zk.crt");

        keytool("-genkeypair", "-alias", "zk", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
            "-keystore", keyStore.getAbsolutePath(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-alias", "zk", "-keystore", keyStore.getAbsolutePath(), "-storepass", PASSWORD,
            "-file", cert.getAbsolutePath());
        keytool("-importcert", "-noprompt", "-alias", "zk", "-file", cert.getAbsolutePath(), "-storetype", "PKCS12",
            "-keystore", trustStore.getAbsolutePath(), "-storepass", PASSWORD);
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();

        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "keytool");
        cmd.addAll(List.of(args));

        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());

        assertTrue("keytool finished", p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("keytool " + args[0] + ": " + out, 0, p.exitValue());
    }
}
