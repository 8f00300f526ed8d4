package io.zkion.discovery.chaos;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

/**
 * Ignite 2.17 and Ignite 2.18 nodes meeting in one ZkIon cluster (issue 13), each in its own JVM: Ignite refuses
 * the join either way, and the refused node gets Ignite's reason; the way from 2.17 to 2.18 is a whole restart.
 */
public class MixedIgniteTest {
    /** Ignite 2.17's reason, and 2.18's (its rolling-upgrade processor's), as the node's log writes them. */
    private static final String VERSIONS_DIFFER_217 = "different_version_numbers";
    private static final String VERSIONS_DIFFER_218 = "incompatible_version_for_cluster_join";

    @Test(timeout = 15 * 60_000L) public void ignite217And218RefuseEachOtherAndAWholeRestartMovesTheCluster()
        throws Exception {
        try (RollingRestart run = new RollingRestart("mixed-ignite")) {
            Release i217 = Release.current(run.settings);
            Release i218 = ignite218(run.settings);

            run.start(i217, i217);

            String reason = run.refusedJoin("s-2.18", i218);

            System.out.println("[mixed-ignite] a 2.18 server joining 2.17 nodes: " + reason);
            assertTrue("the 2.18 joiner's reason: " + reason,
                reason.contains(VERSIONS_DIFFER_217) && reason.contains("rmtBuildVer=2.18.0"));
            run.checkUnharmed();

            run.restartWhole(i218, i218);

            reason = run.refusedJoin("s-2.17", i217);

            System.out.println("[mixed-ignite] a 2.17 server joining 2.18 nodes: " + reason);
            assertTrue("the 2.17 joiner's reason: " + reason,
                reason.contains(VERSIONS_DIFFER_218) && reason.contains("Version_:_2.17.0"));
            run.checkUnharmed();

            System.out.println("[mixed-ignite] after the whole restart on 2.18: " + run.finish());
        }
    }

    /** @return Ignite 2.18 with ZkIon's 2.18 line, as that module's build wrote its class path down. */
    static Release ignite218(RunSettings s) throws Exception {
        Path target = Paths.get("..", "spi-ignite-2.18", "target").toAbsolutePath().normalize();
        Path jar = target.resolve("zkion-discovery-ignite-2.18-" + System.getProperty("zkion.version") + ".jar");
        Path cpFile = target.resolve("node-classpath.txt");
        List<String> cp = new ArrayList<>();

        assertTrue(jar + " and " + cpFile + " come from building modules/spi-ignite-2.18 first",
            Files.isRegularFile(jar) && Files.isRegularFile(cpFile));

        cp.add(jar.toString());
        cp.addAll(List.of(new String(Files.readAllBytes(cpFile), StandardCharsets.UTF_8).trim().split(File.pathSeparator)));
        // The node's application, ChaosNode and its helpers.
        cp.add(Release.locationOf(ChaosNode.class));

        return Release.of("ignite-2.18", cp, jar);
    }
}
