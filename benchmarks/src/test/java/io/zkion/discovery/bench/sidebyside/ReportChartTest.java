package io.zkion.discovery.bench.sidebyside;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The side-by-side charts: one per metric, labelled in the metric's unit. */
public class ReportChartTest {
    @Test public void unitsComeFromTheMetric() {
        assertEquals("ms", Report.unit("custom event round trip, 3 servers (ms)"));
        assertEquals("bytes", Report.unit("allocation per cache create, coordinator's threads (bytes)"));
        assertEquals("count", Report.unit("rounds that failed (count)"));
        assertEquals("bytes", Report.unit("cache create message (Ignite's DynamicCacheChangeBatch), marshalled and compressed (bytes)"));
        assertEquals("value", Report.unit("no unit given"));
    }

    @Test public void everyMetricGetsAChart() throws Exception {
        Map<String, Map<SpiKind, List<Double>>> results = new LinkedHashMap<>();

        results.put("custom event round trip, 3 servers (ms)", perSpi(List.of(0.5, 0.6, 0.7), List.of(1.4, 1.5, 2.0),
            List.of(0.2, 0.3, 0.25)));
        // Spread over more than 20x: a logarithmic axis, on which XChart draws no bars (the run of 2026-11-30 lost it).
        results.put("custom event round trip, 16 servers (ms)", perSpi(List.of(0.9, 1.5, 20.0), List.of(2.5, 3.3, 7.0),
            List.of(0.3, 0.5, 1.8)));
        results.put("join storm, 3 servers (ms)", perSpi(List.of(900.0, 950.0), List.of(1200.0, 1300.0),
            List.of(10.0, 12.0)));

        // Measured for ZkIon alone, across a wide range: the run of 2026-11-23 stopped at such a chart.
        results.put("zkion data znode per join (bytes)", perSpi(List.of(100.0, 9000.0), List.of(), List.of()));
        results.put("allocation per event (bytes)", perSpi(List.of(0.0, 40.0), List.of(900.0, 1000.0), List.of(0.0, 0.0)));

        Path dir = Files.createTempDirectory("report");

        new Report(results, new LinkedHashMap<>(), new LinkedHashMap<>(), 3, 0).write(dir);

        for (String chart : List.of("custom-event-round-trip-3-servers", "custom-event-round-trip-16-servers",
            "join-storm-3-servers",
            "zkion-data-znode-per-join", "allocation-per-event"))
            assertTrue(chart, Files.size(dir.resolve("side-by-side-" + chart + ".png")) > 1_000);
    }

    private static Map<SpiKind, List<Double>> perSpi(List<Double> zkion, List<Double> stock, List<Double> tcp) {
        Map<SpiKind, List<Double>> m = new EnumMap<>(SpiKind.class);

        m.put(SpiKind.ZKION, zkion);
        m.put(SpiKind.STOCK_ZK, stock);
        m.put(SpiKind.TCP, tcp);

        return m;
    }
}
