package io.zkion.discovery.config;

import java.util.List;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** What a node says as it starts, and when it warns: a ZooKeeper without persistent watches, a short session. */
public class StartReportTest {
    @Test public void versionsCompareByMajorAndMinor() {
        int[] min = {3, 6};

        assertFalse(StartReport.atLeast("3.5.10", min));
        assertTrue(StartReport.atLeast("3.6.0", min));
        assertTrue(StartReport.atLeast("3.8.4", min));
        assertTrue(StartReport.atLeast("4.0.0", min));
        assertFalse(StartReport.atLeast("2.9.9", min));
    }

    @Test public void warnsOfAnOldZooKeeperAndAShortSession() {
        List<String> w = StartReport.of("3.5.10").warnings(3_000);

        assertEquals(w.toString(), 2, w.size());
        assertTrue(w.get(0), w.get(0).startsWith("ZooKeeper 3.5.10 is older than 3.6"));
        assertTrue(w.get(1), w.get(1).startsWith("The session timeout is 3000 ms") && w.get(1).contains(" 500 ms after"));

        assertEquals(List.of(), StartReport.of("3.8.4").warnings(6_000));
        assertEquals("unknown: no warning on a guess", List.of(), StartReport.of(null).warnings(10_000));
    }

    @Test public void theLineNamesTheReleaseTheIgniteLineZooKeeperAndTheGrant() {
        String s = StartReport.of("3.8.4").describe(5_000, 6_000);

        assertTrue(s, s.startsWith("release=" + BuildInfo.release() + ", ignite=" + BuildInfo.igniteLine()));
        assertTrue("the build wrote its record: " + s, !BuildInfo.release().equals("unknown")
            && BuildInfo.igniteLine().startsWith("2.1"));
        assertTrue(s, s.endsWith("zookeeper=3.8.4, sessionTimeout=6000 ms (granted; asked 5000)"));
        assertTrue(StartReport.of(null).describe(6_000, 6_000).contains("zookeeper=unknown"));
    }
}
