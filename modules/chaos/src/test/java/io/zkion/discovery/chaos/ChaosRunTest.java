package io.zkion.discovery.chaos;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.stream.Collectors;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The chaos run (issue 11): 6 servers and 2 clients in their own JVMs on a 3-process ZooKeeper ensemble,
 * {@code zkion.chaos.faults} random faults (a few in the default build, 100 with {@code -Pchaos}), every check
 * after each. Fails with every violation found; the report names each with what the nodes' logs showed.
 */
public class ChaosRunTest {
    @Test(timeout = 6 * 3600_000L) public void faultsBreakNoPromise() throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
        Path reportDir = Paths.get(System.getProperty("zkion.chaos.report", "target/chaos"));
        RunSettings s = new RunSettings(reportDir, Paths.get("target", "chaos-run", stamp).toAbsolutePath());

        ChaosReport r = new ChaosRun(s).run("chaos-" + stamp);

        System.out.println(r.markdown());

        assertTrue("Violations (report in " + reportDir + ", node logs in " + s.runDir + "):\n"
            + r.violations.stream().map(v -> "after fault " + v.fault + ", " + v).collect(Collectors.joining("\n")),
            r.violations.isEmpty());
        assertEquals("faults injected", s.faults, r.faults.size());
    }
}
