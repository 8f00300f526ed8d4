package io.zkion.discovery.examples;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The {@code -all} jar drops in beside Ignite's own ZooKeeper module: a node started from it, on a class path that
 * also holds {@code ignite-zookeeper} 2.17.0 with its ZooKeeper and, first, Guava 16 and ZooKeeper 3.5 (without the
 * persistent watches the SPI uses), joins a cluster. The jar's Curator, ZooKeeper and Guava are relocated, so they
 * never meet those copies; without the relocation the node fails on ZooKeeper 3.5.
 */
public class ClasspathBesideStockTest {
    @Test(timeout = 180_000) public void aNodeFromTheAllJarJoinsBesideTheStockModule() throws Exception {
        File[] all = new File("modules/spi/target").listFiles((d, n) -> n.startsWith("zkion-discovery-") && n.endsWith("-all.jar"));
        File[] foreign = new File("examples/target/foreign-jars").listFiles();

        assertTrue("the -all jar is built", all != null && all.length == 1);
        assertTrue("ignite-zookeeper, Guava 16 and ZooKeeper 3.5 are copied", foreign != null && foreign.length == 4);

        try (TestingServer zk = new TestingServer(true)) {
            System.setProperty("zkion.zk", zk.getConnectString());
            System.setProperty("zkion.root", "/beside-stock");
            System.setProperty("zkion.name", "in-test");

            try {
                Ignite first = Ignition.start("config/zkion-server.xml");
                String out = runNode(zk.getConnectString(), all[0], foreign);

                assertTrue(out, out.contains("stock SPI present"));
                assertTrue(out, out.contains("SPI from " + all[0].getAbsoluteFile().toURI()));
                assertTrue(out, out.contains("Guava from ") && out.contains("guava-16.0.1.jar"));
                assertTrue(out, out.contains("ZooKeeper from ") && out.contains("zookeeper-3.5.10.jar"));
                assertTrue(out, out.contains("JOINED, nodes 2 of 2"));
                assertEquals(1, first.cluster().nodes().size()); // The other stopped.
            }
            finally {
                Ignition.stopAll(true);
                System.clearProperty("zkion.zk");
                System.clearProperty("zkion.root");
                System.clearProperty("zkion.name");
            }
        }
    }

    /** @return What the node printed; it ran on: Guava 16 and the stock module, this test's class path without ZkIon's own classes, then the -all jar. */
    private static String runNode(String zk, File all, File[] foreign) throws Exception {
        List<String> cp = new ArrayList<>();

        // The foreign jars first, so that their classes win over any other copy.
        Arrays.stream(foreign).forEach(f -> cp.add(f.getAbsolutePath()));

        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.contains("zkion-discovery") && !e.contains("zkion-codec") && !e.contains("/modules/spi/")
                && !e.contains("/modules/codec/") && !e.contains("/guava/"))
                cp.add(e);
        }

        cp.add(all.getAbsolutePath());

        Process opens = new ProcessBuilder("bash", "config/jvm-opens.sh").start();
        String flags = new String(opens.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();

        assertEquals(0, opens.waitFor());

        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java", "-Xmx512m"));

        cmd.addAll(Arrays.asList(flags.split("\\s+")));
        cmd.addAll(List.of("-Djava.net.preferIPv4Stack=true", "-cp", String.join(File.pathSeparator, cp),
            BesideStockNode.class.getName(), zk, "/beside-stock", "2"));

        File log = new File("examples/target/beside-stock.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();

        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("The node did not finish within 120 s; see " + log);
        }

        String out = Files.readAllLines(log.toPath(), StandardCharsets.UTF_8).stream().collect(Collectors.joining("\n"));

        assertEquals("exit code; see " + log + "\n" + out, 0, p.exitValue());

        return out;
    }
}
