package io.zkion.discovery;

import org.apache.ignite.IgniteException;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.junit.Test;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** Bad configuration fails at start with a message that says what to change. */
public class ConfigurationTest extends ZkIonTestSupport {
    @Test(timeout = 60_000) public void missingConnectionString() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setZkConnectionString(null)), "zkConnectionString is not set");
    }

    @Test(timeout = 60_000) public void badRootPath() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setZkRootPath("relative/path")), "must start with '/'");
        expectStartFailure(config("y", false).setDiscoverySpi(spi().setZkRootPath("/a/")), "must not end with '/'");
    }

    @Test(timeout = 60_000) public void sessionTimeoutZooKeeperWouldClamp() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setSessionTimeout(10)), "clamped the session timeout");
    }

    @Test(timeout = 60_000) public void unknownEventFormat() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setEventFormats("ion-9")), "unknown event format 'ion-9'");
    }

    @Test(timeout = 60_000) public void credentialsAreNeverShown() {
        String s = spi().setZkDigestAuth("admin:s3cret").toString();

        assertTrue(s, !s.contains("s3cret") && s.contains("****"));
    }

    private void expectStartFailure(IgniteConfiguration cfg, String expected) {
        try {
            start(cfg);
            fail("Started with a bad configuration");
        }
        catch (IgniteException e) {
            String all = JoinTest.messages(e);

            assertTrue(all, all.contains(expected));
        }
    }
}
