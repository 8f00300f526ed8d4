package io.zkion.discovery.bench.scale;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** A run of one shape keeps an earlier run's other shapes in scale.json, read back as they were written (a whole double
 * is written as an integer, and read back as one; a list of figures as a list). */
public class EarlierResultsTest {
    private static Map<String, Object> result(int members, int clients, double stormMs) {
        Map<String, Object> r = new LinkedHashMap<>();

        r.put("members", members);
        r.put("clients", clients);
        r.put("joinStormMs", stormMs);
        r.put("jvms", "crd 1, bulk0 " + (members - 1));
        r.put("stormZkCounters", Collections.singletonMap("leader_zxid", 12.5));
        r.put("customEachMs", Arrays.asList(120.5, 98.25, stormMs));

        return r;
    }

    @Test public void theShapesNotRunNowAreKept() throws Exception {
        Path json = Files.createTempFile("scale", ".json");

        Files.write(json, ScaleReport.json(Arrays.asList(result(100, 0, 6929.5), result(300, 0, 34877.4)))
            .getBytes(StandardCharsets.UTF_8));

        List<Map<String, Object>> merged = EarlierResults.merged(json,
            Arrays.asList(result(1000, 0, 99.0), result(300, 0, 1.5)));

        assertEquals(3, merged.size());
        assertEquals(result(100, 0, 6929.5), merged.get(0));
        assertEquals("this run's 300 replaces the earlier one", 1.5, merged.get(1).get("joinStormMs"));
        assertEquals(1000, merged.get(2).get("members"));
        Files.delete(json);
    }

    @Test public void noEarlierFileIsNoEarlierResult() throws Exception {
        assertEquals(0, EarlierResults.read(Files.createTempDirectory("scale").resolve("scale.json")).size());
    }
}
