package io.zkion.discovery.testbed;

import java.nio.file.Paths;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

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

    @Test(timeout = 900_000) public void engineImagesUpStatusKillStatusDown() throws Exception {
        Assume.assumeFalse("-Dzkion.testbed.engine=no", "no".equals(System.getProperty("zkion.testbed.engine")));
        bed = new Testbed(Paths.get("target", "testbed-logs", "smoke.log").toAbsolutePath());
        Testbed.Result engine = bed.run(600, "engine");
        Assume.assumeTrue("no Docker engine here: " + engine.out, engine.code == 0);
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
        assertNotEquals("ignite3's node is still in the topology", id, bed.alive().get("ignite3"));
        assertEquals("status after ignite3 was killed", 0, bed.run(90, "status", "2").code);
        assertEquals(0, bed.run(180, "down").code);
    }
}
