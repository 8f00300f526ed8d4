package io.zkion.discovery.bench.sidebyside;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** What bounds each target: the splits the report writes under its table, from the run's own rows. */
public class TargetBoundsTest {
    private final Map<String, Map<SpiKind, List<Double>>> results = new LinkedHashMap<>();
    private final Map<String, List<Double>> bounds = new LinkedHashMap<>();

    @Test public void splitsTheStormsCpuIntoIgnitesZooKeepersAndTheSpisOwn() {
        String s = "join storm, 16 servers";

        put(s + " (ms)", 700, 800);
        put(s + ": JVM CPU time / cores (ms)", 600, 720);
        put(s + ": CPU of the discovery SPI's own threads (ms)", 300, 400);
        put(s + ": of the SPI's threads, Ignite's listener and data exchange (ms)", 40, 50);
        put(s + ": of the SPI's threads, ZooKeeper's send threads (ms)", 60, 90);

        String md = new TargetBounds(new Targets.Run(results, bounds), Map.of()).markdown();

        // ZkIon's own: 300 - 40 - 60 = 200 ms; the target 0.5 x 400 = 200 ms leaves 200 - 40 - 60 = 100 ms for it.
        assertTrue(md, md.contains("ZkIon's threads took 300 ms: Ignite's listener and data exchange 40, ZooKeeper's"
            + " send threads 60, its own 200. With the first two as they were, its own would have to fall to 100 ms."));
        assertTrue(md, md.contains("The stock SPI's own was 260 ms (Ignite's work 50, ZooKeeper's send threads 90)."));
        // Without ZkIon's own 200 ms over the machine's cores, the JVM's CPU per core falls by 200 / cores.
        double without = 600 - 200.0 / Runtime.getRuntime().availableProcessors();

        assertTrue(md, md.contains(String.format(java.util.Locale.ROOT, "that floor would be %.0f ms, %.2fx stock's",
            without, without / 800)));
        // 700 ms of wall time against 600 of CPU per core: 100 ms of waiting.
        assertTrue(md, md.contains("The other 100 ms the storm waited rather than computed"));
    }

    @Test public void splitsAJoinsBytesIntoWrittenAndSentOnTop() {
        put("bytes sent to ZooKeeper per join, 3 servers started together", 27_000, 26_000);
        put(SideBySide.writtenPerJoin(3), 16_000, 18_000);
        put(SideBySide.DATA_ZNODE, 7_200, Double.NaN);

        String md = new TargetBounds(new Targets.Run(results, bounds), Map.of()).markdown();

        assertTrue(md, md.contains("(target 13,000 B, 0.5x stock's 26,000): ZkIon sent 27,000 B, of which 16,000 B were"
            + " data written (the joiner's data znode, its node and joining data written once, 7,200 B of it) and"
            + " 11,000 B requests"));
        assertTrue(md, md.contains("The stock SPI wrote 18,000 B and sent 8,000 B on top."));
    }

    @Test public void theFanOutFloorIsSetAgainstTcp() {
        put("custom event round trip, 16 servers (ms)", 2.0, 7.0, 1.8);
        bounds.put(Targets.fanOutFloor(15), List.of(1.2, 1.3, 1.1));

        String md = new TargetBounds(new Targets.Run(results, bounds), Map.of()).markdown();

        assertTrue(md, md.contains("**Round trip, 16 servers** (target 0.90 ms, 0.5x TCP's 1.80): a bare write until 15"
            + " other clients have each read it took 1.20 ms (0.67x TCP's)"));
    }

    @Test public void aMissingFigureLeavesItsTargetOut() {
        put("join storm, 3 servers (ms)", 100, 90); // No CPU rows: no storm bound.

        String md = new TargetBounds(new Targets.Run(results, bounds), Map.of()).markdown();

        assertFalse(md, md.contains("Join storm, 3 servers"));
        assertFalse(md, md.contains("NaN"));
    }

    private void put(String metric, double zkion, double stock) {
        put(metric, zkion, stock, Double.NaN);
    }

    private void put(String metric, double zkion, double stock, double tcp) {
        Map<SpiKind, List<Double>> m = new EnumMap<>(SpiKind.class);

        m.put(SpiKind.ZKION, List.of(zkion));

        if (!Double.isNaN(stock))
            m.put(SpiKind.STOCK_ZK, List.of(stock));

        if (!Double.isNaN(tcp))
            m.put(SpiKind.TCP, List.of(tcp));

        results.put(metric, m);
    }
}
