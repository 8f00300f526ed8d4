package io.zkion.discovery.compat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.IgniteVersionUtils;
import org.apache.ignite.internal.processors.rollingupgrade.RollingUpgradeProcessor;
import org.apache.ignite.internal.util.lang.IgnitePair;
import org.apache.ignite.internal.util.typedef.F;
import org.apache.ignite.internal.util.typedef.G;
import org.apache.ignite.internal.util.typedef.X;
import org.apache.ignite.internal.util.typedef.internal.U;
import org.apache.ignite.lang.IgniteProductVersion;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.discovery.DiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;
import org.apache.ignite.testframework.junits.common.GridCommonAbstractTest;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

import static org.apache.ignite.internal.IgniteNodeAttributes.ATTR_BUILD_VER;
import static org.apache.ignite.testframework.GridTestUtils.waitForCondition;

/**
 * Ignite 2.18's rolling-upgrade mode (IEP-132, {@link RollingUpgradeProcessor}) on ZkIon, next to the same steps on
 * Ignite's TcpDiscoverySpi. A node presents another version as Ignite's own rolling-upgrade tests make it: its
 * discovery SPI replaces the build version in the node attributes it is given (and here the node version too, which
 * TcpDiscoverySpi's ring compares).
 *
 * <p>What the processor takes from discovery: the joiner's version from its {@code ATTR_BUILD_VER} attribute, in
 * {@code validateNode} on the coordinator; the versions pair from the distributed metastorage. Through ZkIon both work:
 * the coordinator decides, and its reason reaches the joiner. What it does not take from ZkIon: {@code enable} refuses
 * any SPI but TcpDiscoverySpi ("Rolling upgrade is supported only with TCP discovery SPI"), and {@code disable}, once
 * the mode is on, reads TcpDiscoverySpi's ring, which is null on another SPI: a NullPointerException. Neither is ours to
 * change. To show what the mode does once on, the ZkIon run writes the pair {@code enable} would write (current,
 * target) into the distributed metastorage itself, as a stand-in, and removes it for {@code disable}.
 */
@RunWith(Parameterized.class)
public class RollingUpgradeModeTest extends GridCommonAbstractTest {
    /** The distributed metastorage key the processor keeps its (current, target) pair under. */
    private static final String VERSIONS_KEY = "ignite.internal.rolling.upgrade.versions";

    private static final String REFUSED = "Remote node rejected due to incompatible version for cluster join";

    private static final String TCP_ONLY = "Rolling upgrade is supported only with TCP discovery SPI";

    /** The version nodes run, as they present it when not told otherwise. */
    private static final String CUR = "2.18.0";

    private static final String NEXT = "2.18.1";

    @Parameterized.Parameter
    public String spi;

    /** The version each node (by instance name) presents; absent: its own. */
    private final Map<String, String> presented = new ConcurrentHashMap<>();

    private static final String PREPROCESSOR = "ignite.cfg.preprocessor.class";

    /** The preprocessor, cleared for the TcpDiscoverySpi run so that its nodes keep Ignite's SPI. */
    private static final String PREPROCESSOR_CLASS = System.getProperty(PREPROCESSOR);

    @Parameterized.Parameters(name = "{0}")
    public static Collection<Object[]> spis() {
        return Arrays.asList(new Object[] {"zkion"}, new Object[] {"tcp"});
    }

    private boolean tcp() {
        return "tcp".equals(spi);
    }

    @Override protected void beforeTest() throws Exception {
        super.beforeTest();

        assertEquals("the nodes run Ignite " + CUR, CUR, IgniteVersionUtils.VER_STR);

        // Parameterized runs share one class fixture: set the property for each test, by its SPI.
        if (tcp())
            System.clearProperty(PREPROCESSOR);
        else if (PREPROCESSOR_CLASS != null)
            System.setProperty(PREPROCESSOR, PREPROCESSOR_CLASS);
    }

    @Override protected void afterTestsStopped() throws Exception {
        if (PREPROCESSOR_CLASS != null)
            System.setProperty(PREPROCESSOR, PREPROCESSOR_CLASS);

        super.afterTestsStopped();
    }

    @Override protected void afterTest() throws Exception {
        stopAllGrids();
        presented.clear();
    }

    @Override protected IgniteConfiguration getConfiguration(String name) throws Exception {
        IgniteConfiguration cfg = super.getConfiguration(name);
        String ver = presented.get(name);

        if (tcp()) {
            TcpDiscoverySpi tcpSpi = new TcpPresenting(ver);

            tcpSpi.setIpFinder(sharedStaticIpFinder);

            return cfg.setDiscoverySpi(tcpSpi);
        }

        return cfg.setDiscoverySpi(ZkIonTestConfigurator.configure(new ZkIonPresenting(ver), cfg));
    }

    /** (1) With the mode off, a node presenting another version is refused by Ignite's check, its reason reaching it. */
    @Test public void anotherVersionIsRefusedWithIgnitesReason() throws Exception {
        start(0, null, false);
        start(1, null, false);

        assertRefused(2, NEXT, false, CUR);
        assertRefused(3, NEXT, true, CUR);
        assertRefused(4, "2.17.0", false, CUR);

        assertTopology(2);
        assertDiscoverySpi();
    }

    /**
     * Enabling the mode: only on the coordinator, on either SPI; then on TcpDiscoverySpi the version check runs and the
     * pair reaches every node, while on any other SPI Ignite refuses before it looks at the versions.
     */
    @Test public void enablingTheMode() throws Exception {
        IgniteEx crd = start(0, null, false);
        IgniteEx other = start(1, null, false);

        assertEnableFails(other, NEXT, "Rolling upgrade can be enabled only on coordinator node");

        if (tcp()) {
            assertEnableFails(crd, "2.18.2", "Patch version can only be incremented by 1");
            assertEnableFails(crd, "3.0.0", "Major versions are different");

            crd.context().rollingUpgrade().enable(ver(NEXT), false);

            awaitMode(F.pair(ver(CUR), ver(NEXT)));
        }
        else {
            assertEnableFails(crd, "2.18.2", TCP_ONLY);
            assertEnableFails(crd, NEXT, TCP_ONLY);
            assertEnableFails(crd, "2.20.0", true, TCP_ONLY);

            for (Ignite g : G.allGrids())
                assertFalse(g.name(), ((IgniteEx)g).context().rollingUpgrade().enabled());

            // Refused, the mode stays off: the next version is refused as before.
            assertRefused(2, NEXT, false, CUR);
        }
    }

    /**
     * (2) and (3): with the mode on (on ZkIon through the stand-in), the target version joins, as server and client, and
     * every node sees its version; another version is still refused, naming both allowed; a new coordinator keeps the
     * mode; disabling while mixed is refused on TcpDiscoverySpi and fails on ZkIon; once every node runs the target,
     * disabling closes the door to the old version.
     */
    @Test public void theModeAdmitsTheTargetVersion() throws Exception {
        IgniteEx crd = start(0, null, false);

        start(1, null, false);

        turnOn(crd, NEXT);

        IgniteEx next = start(2, NEXT, false);

        start(3, NEXT, true);
        assertTopology(4);

        for (Ignite g : G.allGrids()) {
            ClusterNode seen = g.cluster().node(next.localNode().id());

            assertEquals(g.name(), NEXT, seen.attribute(ATTR_BUILD_VER));
            assertEquals(g.name(), ver(NEXT), seen.version());
        }

        String both = CUR + ", " + NEXT;

        assertRefused(4, "2.18.2", false, both);
        assertRefused(4, "2.19.0", true, both);
        assertRefused(4, "2.17.0", false, both);

        // Disabling with two versions in the cluster.
        if (tcp())
            assertDisableFails(crd, "Can't disable rolling upgrade with different versions in cluster");
        else
            assertDisableNpe(crd);

        assertTrue(crd.context().rollingUpgrade().enabled());

        // The coordinator leaves: the next (a node of the current version) keeps the mode, from the metastorage.
        // Each stop waits for the exchanges before it: a server stopping during one, with a client in the cluster,
        // hangs the next join on ZkIon, with or without this mode (ClientCoordinatorChangeHangTest).
        awaitPartitionMapExchange();
        stopGrid(0);
        crd = coordinator();
        assertEquals(getTestIgniteInstanceName(1), crd.name());

        assertRefused(4, "2.18.2", false, both);
        start(0, NEXT, false);

        // The last node of the current version moves to the target.
        awaitPartitionMapExchange();
        stopGrid(1);
        start(1, NEXT, false);
        assertTopology(4);

        crd = coordinator();
        assertEquals(getTestIgniteInstanceName(2), crd.name());

        if (tcp())
            crd.context().rollingUpgrade().disable();
        else {
            assertDisableNpe(crd);
            crd.context().distributedMetastorage().remove(VERSIONS_KEY);
        }

        for (Ignite g : G.allGrids()) {
            IgniteEx n = (IgniteEx)g;

            assertTrue(g.name(), waitForCondition(() -> !n.context().rollingUpgrade().enabled(), 10_000));
        }

        assertRefused(4, CUR, false, NEXT);
        assertTopology(4);
        assertDiscoverySpi();
    }

    /** Puts the mode on as {@code enable} does on TcpDiscoverySpi; on ZkIon, where it refuses, writes its pair. */
    private void turnOn(IgniteEx crd, String target) throws Exception {
        IgnitePair<IgniteProductVersion> pair = F.pair(ver(crd.localNode().attribute(ATTR_BUILD_VER)), ver(target));

        if (tcp())
            crd.context().rollingUpgrade().enable(ver(target), false);
        else {
            assertEnableFails(crd, target, TCP_ONLY);
            crd.context().distributedMetastorage().write(VERSIONS_KEY, pair);
        }

        awaitMode(pair);
    }

    /** Every node holds the pair. */
    private void awaitMode(IgnitePair<IgniteProductVersion> pair) throws Exception {
        for (Ignite g : G.allGrids()) {
            RollingUpgradeProcessor ru = ((IgniteEx)g).context().rollingUpgrade();

            assertTrue(g.name(), waitForCondition(() -> pair.equals(ru.versions()), 10_000));
        }
    }

    private IgniteEx start(int idx, String ver, boolean client) throws Exception {
        String name = getTestIgniteInstanceName(idx);

        if (ver == null)
            presented.remove(name);
        else
            presented.put(name, ver);

        return client ? startClientGrid(idx) : startGrid(idx);
    }

    /** The node fails to start with Ignite's reason, naming its version and the allowed ones. */
    private void assertRefused(int idx, String ver, boolean client, String allowed) {
        int before = G.allGrids().size();
        long t0 = System.currentTimeMillis();

        try {
            start(idx, ver, client);

            fail("joined: " + ver);
        }
        catch (Exception e) {
            String full = X.getFullStackTrace(e);

            assertTrue(full, X.hasCause(e, REFUSED, IgniteSpiException.class));
            assertTrue(full, X.hasCause(e, "Version     : " + ver + "\n", IgniteSpiException.class));
            assertTrue(full, X.hasCause(e, "Allowed versions for joining: " + allowedList(allowed),
                IgniteSpiException.class));
        }

        log.info("Refused " + (client ? "client " : "server ") + ver + " in " + (System.currentTimeMillis() - t0)
            + " ms [spi=" + spi + ']');

        assertEquals(before, G.allGrids().size());
    }

    /** "2.18.0, 2.18.1" as the processor writes it: each version with its (empty) build date and hash. */
    private static String allowedList(String vers) {
        StringBuilder sb = new StringBuilder();

        for (String v : vers.split(", ")) {
            if (sb.length() > 0)
                sb.append(", ");

            sb.append(ver(v));
        }

        return sb.toString();
    }

    private void assertEnableFails(IgniteEx n, String target, String msg) {
        assertEnableFails(n, target, false, msg);
    }

    private void assertEnableFails(IgniteEx n, String target, boolean force, String msg) {
        try {
            n.context().rollingUpgrade().enable(ver(target), force);

            fail("enabled to " + target + " on " + n.name());
        }
        catch (IgniteCheckedException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(msg));
        }
    }

    private void assertDisableFails(IgniteEx n, String msg) {
        try {
            n.context().rollingUpgrade().disable();

            fail("disabled on " + n.name());
        }
        catch (IgniteCheckedException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(msg));
        }
    }

    /** Ignite's disable reads TcpDiscoverySpi's ring once the mode is on; on another SPI it has none. */
    private void assertDisableNpe(IgniteEx n) throws IgniteCheckedException {
        try {
            n.context().rollingUpgrade().disable();

            fail("disabled on " + n.name());
        }
        catch (NullPointerException e) {
            log.info("disable() on ZkIon: " + e);
        }
    }

    private IgniteEx coordinator() {
        for (Ignite g : G.allGrids()) {
            IgniteEx n = (IgniteEx)g;

            if (U.isLocalNodeCoordinator(n.context().discovery()))
                return n;
        }

        throw new AssertionError("no coordinator");
    }

    private void assertTopology(int size) throws Exception {
        for (Ignite g : G.allGrids())
            assertTrue(g.name(), waitForCondition(() -> g.cluster().nodes().size() == size, 10_000));
    }

    /** The run is on the SPI it names. */
    private void assertDiscoverySpi() {
        List<String> wrong = new ArrayList<>();

        for (Ignite g : G.allGrids()) {
            DiscoverySpi d = g.configuration().getDiscoverySpi();

            if (tcp() != d instanceof TcpDiscoverySpi)
                wrong.add(g.name() + ": " + d.getClass().getName());
        }

        assertTrue(wrong.toString(), wrong.isEmpty());
    }

    private static IgniteProductVersion ver(String v) {
        return IgniteProductVersion.fromString(v);
    }

    @Override protected long getTestTimeout() {
        return 90_000;
    }

    /** Replaces the node's build version attribute, and its version, with the presented one. */
    private static Map<String, Object> present(Map<String, Object> attrs, String ver) {
        if (ver != null)
            attrs.put(ATTR_BUILD_VER, ver);

        return attrs;
    }

    private static IgniteProductVersion present(IgniteProductVersion own, String ver) {
        return ver == null ? own : ver(ver);
    }

    /** ZkIon, the SPI Ignite's tests here run on, presenting another version. */
    private static final class ZkIonPresenting extends TestSpis.Hooked {
        private final String ver;

        ZkIonPresenting(String ver) {
            this.ver = ver;
        }

        @Override public void setNodeAttributes(Map<String, Object> attrs, IgniteProductVersion own) {
            super.setNodeAttributes(present(attrs, ver), present(own, ver));
        }
    }

    /** Ignite's TcpDiscoverySpi, presenting another version. */
    private static final class TcpPresenting extends TcpDiscoverySpi {
        private final String ver;

        TcpPresenting(String ver) {
            this.ver = ver;
        }

        @Override public void setNodeAttributes(Map<String, Object> attrs, IgniteProductVersion own) {
            super.setNodeAttributes(present(attrs, ver), present(own, ver));
        }
    }
}
