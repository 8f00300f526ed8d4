package io.zkion.discovery.bench.sidebyside;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** Issue 23's targets, each judged against what its rule names: stock, TCP, the floor or Ignite's own message. */
public class TargetsTest {
    private final Map<String, Map<SpiKind, List<Double>>> results = new LinkedHashMap<>();
    private final Map<String, List<Double>> bounds = new LinkedHashMap<>();

    @Test public void aStormIsHeldToFourFifthsOfStock() {
        put("join storm, 3 servers (ms)", List.of(80.0), List.of(100.0), List.of(4000.0));
        assertEquals("<= 0.80x stock (0.80x): met", verdict("join storm, 3 servers (ms)"));

        put("join storm, 8 servers (ms)", List.of(81.0), List.of(100.0), List.of(4000.0));
        assertEquals("<= 0.80x stock (0.81x): missed", verdict("join storm, 8 servers (ms)"));
    }

    @Test public void roundTripsAreHeldToTcpOrTheFloorAtP50AndP90() {
        put("custom event round trip, 8 servers (ms)", List.of(1.0, 1.0, 3.0), List.of(5.0), List.of(1.0, 1.0, 2.0));
        assertEquals("<= 1.00x TCP (1.00x, p90 1.50x): missed", verdict("custom event round trip, 8 servers (ms)"));

        put("custom event round trip, 3 servers (ms)", List.of(0.9, 1.2), List.of(3.0), List.of(0.5));
        bounds.put(Targets.FLOOR_ROUND_TRIP, List.of(0.6, 0.8));
        assertEquals("<= 1.50x the bare-ZooKeeper floor (1.50x, p90 1.50x): met",
            verdict("custom event round trip, 3 servers (ms)"));
    }

    @Test public void aCacheCreateIsHeldToIgnitesMessagePlus300Bytes() {
        put(Targets.CACHE_CREATE_MESSAGE, List.of(2600.0), List.of(2600.0), List.of(2600.0));
        put("bytes sent to ZooKeeper per cache create", List.of(3000.0), List.of(5000.0), List.of());
        assertEquals("<= the message + 300 B (3,000 against 2,900): missed",
            verdict("bytes sent to ZooKeeper per cache create"));
    }

    @Test public void aMetricWithoutATargetOrAFigureGetsNoVerdict() {
        put("cache create, one after another (ms per cache)", List.of(20.0), List.of(30.0), List.of(25.0));
        assertEquals("", verdict("cache create, one after another (ms per cache)"));

        put("session loss until NODE_FAILED everywhere (ms)", List.of(5.0), List.of(), List.of(900.0));
        assertEquals("", verdict("session loss until NODE_FAILED everywhere (ms)"));
    }

    private String verdict(String metric) {
        return Targets.verdict(metric, new Targets.Run(results, bounds));
    }

    private void put(String metric, List<Double> zkion, List<Double> stock, List<Double> tcp) {
        Map<SpiKind, List<Double>> m = new EnumMap<>(SpiKind.class);

        m.put(SpiKind.ZKION, zkion);
        m.put(SpiKind.STOCK_ZK, stock);
        m.put(SpiKind.TCP, tcp);
        results.put(metric, m);
    }
}
