package io.zkion.discovery.testbed;

import java.nio.file.Paths;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * CI's smoke of the real testbed: engine, images, up, status, kill one server, status, down. Where no engine can be
 * had (not root, or Debian's packages out of reach), or with {@code -Dzkion.testbed.engine=no}, it is skipped with
 * the reason. As root it installs and starts the engine ({@code docker/testbed engine}); it never leaves containers.
 */
public class TestbedSmokeTest {
    private static Testbed bed;

    @AfterClass public static void down() throws Exception {
        if (bed != null)
            bed.run(180, "down");
    }

    /** Above the sum of the steps' own bounds, so that a step's bound fires first and says which. */
    @Test(timeout = 3_000_000) public void engineImagesUpStatusKillStatusDown() throws Exception {
        Assume.assumeFalse("-Dzkion.testbed.engine=no", "no".equals(System.getProperty("zkion.testbed.engine")));
        bed = new Testbed(Paths.get("target", "testbed-logs", "smoke.log").toAbsolutePath());
        Testbed.Result engine = bed.run(600, "engine");
        // Exit code 3: no engine can be had on this machine. Any other failure of the step is a failure.
        Assume.assumeTrue("no Docker engine here: " + engine.out, engine.code != 3);
        assertEquals("docker/testbed engine: " + engine.out, 0, engine.code);
        bed.must(1200, "images");
        bed.run(180, "down");
        bed.must(400, "up");
        assertEquals(0, bed.run(90, "status", "3").code);
        String id = bed.alive().get("ignite3");
        bed.must(30, "kill", "ignite3");
        // The killed server is failed once ZooKeeper expires its session (20 s).
        long end = System.currentTimeMillis() + Testbed.SESSION_TIMEOUT_MS + 60_000;
        while (id.equals(bed.alive().get("ignite3")) && System.currentTimeMillis() < end)
            Thread.sleep(1_000);
        Map<String, String> after = bed.alive();
        assertNotEquals("ignite3's node is still in the topology", id, after.get("ignite3"));
        assertTrue("ignite1 and ignite2 are not both in: " + after, after.containsKey("ignite1")
            && after.containsKey("ignite2"));
        assertEquals("status after ignite3 was killed", 0, bed.run(90, "status", "2").code);
        assertEquals(0, bed.run(180, "down").code);
    }
}
