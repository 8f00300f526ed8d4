package io.zkion.discovery;

import java.util.List;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteException;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.junit.Test;
import sun.reflect.ReflectionFactory;

import static org.junit.Assert.assertEquals;
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

    /** ZooKeeper grants at least 2 ticks whatever is asked: the node runs with what is granted, as the stock SPI does. */
    @Test(timeout = 60_000) public void sessionTimeoutZooKeeperClampsIsGrantedNotRefused() throws Exception {
        Ignite n = start(config("x", false).setDiscoverySpi(spi().setSessionTimeout(10)));
        long granted = spiOf(n).getZkSessionTimeout();

        assertTrue("granted " + granted, granted > 10);
        assertEquals(10, spiOf(n).getSessionTimeout());
    }

    /**
     * An SPI shipped to another JVM inside an IgniteConfiguration (Ignite's multi-JVM tests do this with XStream)
     * comes back with its fields copied and no constructor or field initialiser run: transient fields are unset.
     */
    @Test(timeout = 60_000) public void anSpiRebuiltWithoutItsConstructorJoins() throws Exception {
        start("s1");

        Ignite t = start(config("travelled", false).setDiscoverySpi(rebuiltWithoutConstructor(spi())));

        assertEquals(2, t.cluster().nodes().size());
    }

    /** As serialisation rebuilds an object: every non-static, non-transient field copied, nothing else run. */
    @SuppressWarnings("unchecked")
    private static <T> T rebuiltWithoutConstructor(T o) throws Exception {
        Constructor<?> bare = ReflectionFactory.getReflectionFactory()
            .newConstructorForSerialization(o.getClass(), Object.class.getDeclaredConstructor());
        T copy = (T)bare.newInstance();

        for (Class<?> k = o.getClass(); k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || Modifier.isTransient(f.getModifiers()))
                    continue;

                f.setAccessible(true);
                f.set(copy, f.get(o));
            }
        }

        return copy;
    }

    @Test(timeout = 60_000) public void unknownEventFormat() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setEventFormats("ion-9")), "unknown event format 'ion-9'");
    }

    @Test(timeout = 60_000) public void credentialsFromAnUnsetVariableAreAClearError() {
        expectStartFailure(config("x", false).setDiscoverySpi(spi().setZkDigestAuth("env:ZKION_TEST_NO_SUCH_VARIABLE")),
            "environment variable ZKION_TEST_NO_SUCH_VARIABLE, which is not set");
    }

    /** Znodes anyone who reaches ZooKeeper can rewrite are said at start; with credentials they are not. */
    @Test(timeout = 60_000) public void worldOpenZnodesAreWarnedOf() throws Exception {
        ErrorLog open = new ErrorLog();
        ErrorLog closed = new ErrorLog();

        start(config("open", false).setGridLogger(open));
        // A cluster of its own: the nodes of one cluster share their credentials.
        start(config("closed", false).setGridLogger(closed)
            .setDiscoverySpi(spi().setZkRootPath(root + "-closed").setZkDigestAuth("ignite:secret")));

        assertTrue(open.messages.toString(), open.has("open to every ZooKeeper client", "zkDigestAuth"));
        assertTrue(closed.messages.toString(), !closed.has("open to every ZooKeeper client"));
    }

    /**
     * The start line names what runs, against which ZooKeeper, with the session timeout granted; a session too short
     * for the outage rule is warned of.
     */
    @Test(timeout = 60_000) public void theStartLineSaysWhatRunsAndAShortSessionIsWarnedOf() throws Exception {
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.apache.ignite.logger.NullLogger all = new org.apache.ignite.logger.NullLogger() {
            @Override public boolean isInfoEnabled() {
                return true;
            }

            @Override public void info(String msg) {
                lines.add(msg);
            }

            @Override public void warning(String msg) {
                lines.add(msg);
            }

            @Override public void warning(String msg, Throwable e) {
                lines.add(msg);
            }

            @Override public org.apache.ignite.IgniteLogger getLogger(Object ctgr) {
                return this;
            }
        };

        Ignite n = start(config("short", false).setGridLogger(all).setDiscoverySpi(spi().setSessionTimeout(3_000)));
        long granted = spiOf(n).getZkSessionTimeout();
        String started = lines.stream().filter(l -> l.startsWith("ZkIonDiscoverySpi started")).findFirst().orElse("");

        assertTrue(lines.toString(), started.contains(", release=" + io.zkion.discovery.config.BuildInfo.release()
            + ", ignite=2.1") && started.contains(", zookeeper=3.") && started.contains("sessionTimeout=" + granted + " ms"));
        assertTrue(granted + " ms granted", granted < 6_000);
        assertTrue(lines.toString(), lines.stream().anyMatch(l -> l.startsWith("The session timeout is " + granted + " ms")
            && l.contains("set sessionTimeout to 6000 ms or more")));
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
