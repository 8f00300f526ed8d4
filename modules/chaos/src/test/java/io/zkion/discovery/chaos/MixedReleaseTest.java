package io.zkion.discovery.chaos;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import io.zkion.discovery.SlowTest;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import static org.junit.Assert.assertTrue;

/**
 * Nodes of release 0.1.0, built from the repository's history, and of the build under test in one cluster, each in
 * its own JVM on one ZooKeeper ensemble (issue 13): a rolling upgrade of every server, coordinator last, and the
 * same backwards. Each step is checked as {@link RollingRestart} says.
 */
public class MixedReleaseTest {
    /** The earlier release, and its commit (tag v0.1.0). */
    static final String OLD = "0.1.0";
    static final String OLD_COMMIT = "c7f83adc525f00639ff8b9accd1daf52309d51ff";

    private static List<Path> oldJars;

    @BeforeClass public static void buildOldRelease() throws Exception {
        oldJars = ReleaseBuild.jars(OLD, OLD_COMMIT);
    }

    /**
     * Scenarios 1 and 3: 0.1.0 servers, the coordinator among them, restarted one by one into the build under test
     * while a client of the build under test writes. Until the coordinator's turn an old coordinator admits new nodes.
     * Once the cluster is mixed, the old coordinator is killed with kill -9 and comes back on this build (issue 25);
     * the next oldest server, of 0.1.0, takes over. The old nodes read only ion-1 and jdk-zlib (0.1.0 reads ion-2
     * too; a cluster that had not enabled it), so the cluster writes ion-1 until the last old node has left, then ion-2.
     */
    @Test(timeout = 20 * 60_000L) public void upgradeOneServerAtATime() throws Exception {
        try (RollingRestart run = new RollingRestart("upgrade")) {
            Release old = old(run).with("-Dzkion.chaos.eventFormats=ion-1,jdk-zlib");
            Release now = Release.current(run.settings);

            run.lossyStops(old);
            run.start(old, now);
            run.assertWriteFormat("ion-1", "with every server on " + OLD);

            run.step(run.restartOrder().get(0), now);
            run.assertWriteFormat("ion-1", "after the first restart");

            assertTrue("the coordinator killed is of " + OLD, run.releaseOf(run.coordinator()) == old);
            String killed = run.killCoordinator(now);

            assertTrue("an old server took over from " + killed, run.releaseOf(run.coordinator()) == old);
            run.assertWriteFormat("ion-1", "after the old coordinator was killed");

            List<String> order = run.restartOrder(old);

            for (int i = 0; i < order.size(); i++) {
                if (i < order.size() - 1)
                    assertTrue("an old coordinator admits the new nodes", run.releaseOf(run.coordinator()) == old);

                run.step(order.get(i), now);
                run.assertWriteFormat(i < order.size() - 1 ? "ion-1" : "ion-2", "after " + (i + 3) + " restarts");
            }

            report("upgrade " + OLD + " to current", run.finish());
        }
    }

    /**
     * Scenarios 2 and 4: servers of the build under test restarted one by one into 0.1.0 (its default formats) while
     * a 0.1.0 client writes. Until the coordinator's turn a new coordinator has old members; once mixed, the new
     * coordinator is killed with kill -9 and comes back on 0.1.0.
     */
    @Category(SlowTest.class) // With -Pslow: CI's budget, and its known flake (docs/tests.md, "Flakes").
    @Test(timeout = 20 * 60_000L) public void downgradeOneServerAtATime() throws Exception {
        try (RollingRestart run = new RollingRestart("downgrade")) {
            Release old = old(run);
            Release now = Release.current(run.settings);

            run.lossyStops(old);
            run.start(now, old);

            run.step(run.restartOrder().get(0), old);

            // The new coordinator killed while the cluster is mixed, back on 0.1.0 (issue 25).
            assertTrue("the coordinator killed is of this build", run.releaseOf(run.coordinator()) == now);
            run.killCoordinator(old);
            run.assertWriteFormat("ion-2", "after the coordinator was killed");

            List<String> order = run.restartOrder(now);

            for (int i = 0; i < order.size(); i++) {
                if (i < order.size() - 1)
                    assertTrue("a new coordinator has old members", run.releaseOf(run.coordinator()) == now);

                run.step(order.get(i), old);
                run.assertWriteFormat("ion-2", "after " + (i + 3) + " restarts");
            }

            report("downgrade current to " + OLD, run.finish());
        }
    }

    private static Release old(RollingRestart run) {
        return Release.of(OLD, run.settings.classPath, oldJars);
    }

    private static void report(String what, RollingRestart.Tally t) {
        System.out.println("[mixed-release] " + what + ": " + t);
        assertTrue("failed puts other than a topology change's (which Ignite documents as retriable): "
            + t.failedPuts, t.failedPuts.keySet().stream().allMatch(k -> k.startsWith("ClusterTopology")));
    }
}
