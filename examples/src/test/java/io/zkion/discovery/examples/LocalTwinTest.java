package io.zkion.discovery.examples;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The local-process twin of docker/docker-compose.yml starts the same topology (3 ZooKeeper servers in an
 * ensemble, 3 Ignite servers from config/zkion-server.xml), forms one cluster, and stops cleanly.
 */
public class LocalTwinTest {
    @Test(timeout = 420_000) public void twinRunsTheComposeTopology() throws Exception {
        String compose = new String(Files.readAllBytes(Paths.get("docker/docker-compose.yml")), StandardCharsets.UTF_8);

        // The twin is only a twin while the compose file has the topology the twin script starts.
        // The replacement ensemble (profile "replacement", for docker/testbed replace-zk) has no twin either.
        assertEquals(3, count(compose, "image: ${ZK_IMAGE:-zookeeper:") + count(compose, "<<: *zk\n")
            - count(compose, "profiles: [\"replacement\"]"));
        // The compose file's client (-Dzkion.client=true) has no twin: the twin starts the servers.
        assertEquals(3, count(compose, "image: ${IGNITE_IMAGE:-apacheignite/ignite:") + count(compose, "<<: *ignite\n")
            - count(compose, "-Dzkion.client=true"));
        assertTrue(compose.contains("CONFIG_URI: /opt/zkion/config/zkion-server.xml"));
        // The same ZooKeeper as the twin's (the one on this class path), and the same session timeout.
        assertTrue(compose, compose.contains("image: ${ZK_IMAGE:-zookeeper:" + org.apache.zookeeper.Version.getFullVersion()
            .replaceAll("[-+ ].*", "") + "}\n"));
        assertTrue(compose.contains("-Dzkion.sessionTimeout=20000"));
        assertTrue(new String(Files.readAllBytes(Paths.get("docker/local-twin.sh")), StandardCharsets.UTF_8)
            .contains("-Dzkion.sessionTimeout=20000"));

        try {
            assertEquals(0, run("up", 360));
            assertEquals(0, run("check", 60));
        }
        finally {
            run("down", 60);
        }
    }

    private static int count(String s, String sub) {
        int n = 0;

        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1))
            n++;

        return n;
    }

    private static int run(String cmd, long seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "docker/local-twin.sh", cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(new File("examples/target/local-twin.log")));

        pb.environment().put("ZKION_TWIN_CLASSPATH", System.getProperty("java.class.path"));

        Process p = pb.start();

        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }

        return p.exitValue();
    }
}
