package io.zkion.discovery.bench.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The scale run's harness at 100 members, so that it never rots: every phase runs on the shipped protocol (a phase
 * that fails to finish throws), and each figure the report needs is there. Its figures are not judged here: speed
 * targets live in {@code benchmarks/run scale}. The {@code scale} profile runs the whole run through this test
 * ({@code zkion.scale.shapes}, {@code zkion.scale.messages}, {@code zkion.scale.out}, {@code zkion.scale.name}).
 */
public class ScaleSmokeTest {
    @Test(timeout = 600_000) // About a minute; never the CI's whole budget.
    public void scaleRun() throws Exception {
        Path out = Files.createDirectories(Path.of(System.getProperty("zkion.scale.out", "target/scale-smoke")));
        String name = System.getProperty("zkion.scale.name", "scale-smoke");
        List<Shape> shapes = Arrays.stream(System.getProperty("zkion.scale.shapes", "100").split(","))
            .map(Shape::parse).collect(Collectors.toList());
        List<Map<String, Object>> res = ScaleRun.run(out, shapes, Integer.getInteger("zkion.scale.messages", 20), name);

        assertEquals(shapes.size(), res.size());

        for (int i = 0; i < shapes.size(); i++)
            check(shapes.get(i), res.get(i));

        assertTrue(Files.readString(out.resolve(name + ".json")).contains("\"joinStormFloorMs\""));
    }

    private static void check(Shape shape, Map<String, Object> r) {
        assertEquals(shape.members(), r.get("members"));

        for (String k : new String[] {"joinStormMs", "joinStormFloorMs", "oneJoinMs", "customP99Ms",
            "customFloorP99Ms", "ackedCustomP99Ms", "ackedCustomFloorP99Ms", "coordinatorFailoverMs", "massFailureMs",
            "zkWritesPerCustom", "zkBytesPerCustomPerMember", "zkWatches", "customCpuUsPerDelivery",
            "customFloorCpuUsPerDelivery", "stormCpuMsPerMember", "joinStormFloorCpuMsPerMember"})
            assertTrue(k + " in " + r, ((Number)r.get(k)).doubleValue() > 0);

        // Where each delivery's CPU went, by kind of thread: ZooKeeper's socket threads work for every delivery.
        for (String k : new String[] {"customCpuUsPerDeliveryByThread", "customFloorCpuUsPerDeliveryByThread"})
            assertTrue(k + " in " + r, ((Number)((Map<?, ?>)r.get(k)).get("zk-socket")).doubleValue() > 0);

        if (Boolean.getBoolean("zkion.scale.ackTrace")) {
            Map<?, ?> trace = (Map<?, ?>)r.get("ackedCustomTraceP50Ms");

            for (String k : new String[] {"gotEverywhere", "lastAckWritten", "ackLogged", "ackEverywhere"})
                assertTrue(k + " in " + trace, ((Number)trace.get(k)).doubleValue() > 0);

            // Every member acks a message Ignite awaits the ack of; the coordinator need not (it logs the ack).
            assertTrue(r.toString(), ((Number)r.get("ackedCustomTraceAcksWritten")).intValue() >= shape.members() - 1);
        }

        // Each timed message's own figure, in the order sent.
        List<?> each = (List<?>)r.get("customEachMs");

        assertEquals(Integer.getInteger("zkion.scale.messages", 20).intValue(), each.size());
        assertTrue(each.toString(), each.stream().allMatch(v -> ((Number)v).doubleValue() > 0));

        String skip = System.getProperty("zkion.scale.skip", "");

        // Each phase that ran, and the figure it must have left.
        String[][] phases = {{"leaderStop", "leaderStopKept"}, {"outage", "outageKept"}, {"pause", "pausedLogLength"}};

        for (String[] p : phases) {
            if (!skip.contains(p[0]))
                assertTrue(p[1] + " in " + r, r.get(p[1]) instanceof Integer);
        }

        // The outage with a tenth of the members paused as it begins runs after the plain one, unless skipped.
        if (!skip.contains("outage") && !skip.contains("slowOutage"))
            assertTrue("slowOutageKept in " + r, r.get("slowOutageKept") instanceof Integer);
    }
}
