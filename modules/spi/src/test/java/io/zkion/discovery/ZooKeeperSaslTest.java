package io.zkion.discovery;

import java.io.File;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.fail;

/**
 * Nodes that log in to ZooKeeper with SASL (DIGEST-MD5 here, through a JAAS configuration set in the test; Kerberos
 * works the same way for the SPI) make their znodes creator-only for that identity, as {@code zkDigestAuth} does:
 * a client that does not log in can neither read nor write them.
 */
public class ZooKeeperSaslTest extends ZkIonTestSupport {
    private static final String PROVIDER = "zookeeper.authProvider.sasl";

    private Configuration jaasBefore;
    private TestingServer saslZk;

    @Before public void startSaslServer() throws Exception {
        jaasBefore = jaas();

        Configuration.setConfiguration(new Configuration() {
            @Override public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
                Map<String, String> opts = new HashMap<>();

                if ("Server".equals(name))
                    opts.put("user_zkion", "zkion-secret");
                else if ("Client".equals(name)) {
                    opts.put("username", "zkion");
                    opts.put("password", "zkion-secret");
                }
                else
                    return null;

                return new AppConfigurationEntry[] {new AppConfigurationEntry(
                    "org.apache.zookeeper.server.auth.DigestLoginModule",
                    AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, opts)};
            }
        });

        // The server's providers are read once per JVM: read again, with SASL among them.
        System.setProperty(PROVIDER, "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
        ProviderRegistry.reset();

        File dir = Files.createTempDirectory("zkion-sasl").toFile();

        saslZk = new TestingServer(new InstanceSpec(dir, -1, -1, -1, true, -1, -1, -1, new HashMap<>(), "127.0.0.1"),
            true);
    }

    /** The nodes first, as the base class stops them: they hold sessions on this server. */
    @After @Override public void stopAll() throws Exception {
        super.stopAll();

        if (saslZk != null)
            saslZk.close();

        System.clearProperty(PROVIDER);
        ProviderRegistry.reset();
        Configuration.setConfiguration(jaasBefore);
    }

    @Test(timeout = 120_000) public void znodesAreCreatorOnlyForTheSaslIdentity() throws Exception {
        ErrorLog log1 = new ErrorLog();
        Ignite s1 = start(onSaslServer("s1", false).setGridLogger(log1));
        Ignite c1 = start(onSaslServer("c1", true));

        await("2 nodes", 30_000, () -> s1.cluster().nodes().size() == 2 && c1.cluster().nodes().size() == 2);

        List<String> got = CustomMessageTest.pingsAndAcks(s1);

        ((IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("sasl"));
        await("delivered with its ack", 30_000, () -> got.size() == 2);

        assertFalse("no open-znodes warning", log1.has("open to every ZooKeeper client"));

        // A client that logs in as the nodes do sees the ACL.
        try (CuratorFramework zkc = client(new ZKClientConfig())) {
            assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("sasl", "zkion"))),
                zkc.getACL().forPath(root + "/state"));
        }

        // A client that does not log in (SASL off for it alone) can neither read nor see the ACLs.
        ZKClientConfig noLogin = new ZKClientConfig();

        noLogin.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");

        try (CuratorFramework anon = client(noLogin)) {
            for (String path : List.of(root + "/state", root + "/gate", root + "/alive")) {
                try {
                    anon.getData().forPath(path);
                    fail("read " + path + " without logging in");
                }
                catch (KeeperException.NoAuthException expected) {
                    // Creator-only.
                }
            }
        }
    }

    private CuratorFramework client(ZKClientConfig cfg) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(saslZk.getConnectString())
            .retryPolicy(new RetryOneTime(100)).zkClientConfig(cfg).build();

        c.start();
        c.blockUntilConnected();

        return c;
    }

    private IgniteConfiguration onSaslServer(String name, boolean client) {
        IgniteConfiguration cfg = config(name, client);

        ((ZkIonDiscoverySpi)cfg.getDiscoverySpi()).setZkConnectionString(saslZk.getConnectString());

        return cfg;
    }

    private static Configuration jaas() {
        try {
            return Configuration.getConfiguration();
        }
        catch (SecurityException none) {
            return null;
        }
    }
}
