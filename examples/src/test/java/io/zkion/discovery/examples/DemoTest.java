package io.zkion.discovery.examples;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The demo README's first command runs, in its own JVM as the command does: it goes through every step, the
 * nodes stop while ZooKeeper is still up, and it exits 0 (Ignite's default failure handler would halt it with
 * 130 if a node lost ZooKeeper on the way).
 */
public class DemoTest {
    @Test(timeout = 240_000) public void demoRunsToTheEnd() throws Exception {
        Process opens = new ProcessBuilder("bash", "config/jvm-opens.sh").redirectErrorStream(true).start();
        String flags = new String(opens.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();

        assertEquals(0, opens.waitFor());

        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-Xmx2g"));

        cmd.addAll(Arrays.asList(flags.split("\\s+")));
        cmd.addAll(List.of("-Djava.net.preferIPv4Stack=true", "-cp", System.getProperty("java.class.path"),
            Demo.class.getName()));

        File out = new File("examples/target/demo-test.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out).start();

        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("The demo did not finish within 180 s; see " + out);
        }

        String log = new String(Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8);

        assertEquals("exit code; see " + out, 0, p.exitValue());
        assertTrue(log, log.contains("server-1 sees NODE_LEFT: node order 2"));
        assertTrue(log, log.contains("key 42 is still value-42"));
        assertTrue(log, log.contains("/zkion-demo/gate"));
        assertTrue(log, log.contains("all nodes stopped; demo done"));
        assertFalse("ZooKeeper's and Curator's logs have a binding: " + log, log.contains("SLF4J:"));
    }
}
