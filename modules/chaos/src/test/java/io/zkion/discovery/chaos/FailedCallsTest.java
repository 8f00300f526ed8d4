package io.zkion.discovery.chaos;

import java.util.List;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** A failed send or put is a violation, but on a node a fault was aimed at, from that fault on. */
public class FailedCallsTest {
    private static Fault pause(String target, long at) {
        Fault f = new Fault(1, FaultKind.PAUSE_NODE);

        f.target = target + " (server)";
        f.injectedAt = at;

        return f;
    }

    @Test public void aFailedCallIsAViolationUnlessAFaultWasAimedAtItsNode() {
        NodeHistory s1 = new NodeHistory("s1.0", List.of("100 START id=a order=1 topVer=1 server",
            "50000 SENDFAIL s1.0.3 IgniteCheckedException:Failed"));
        NodeHistory s2 = new NodeHistory("s2.1", List.of("100 START id=b order=2 topVer=2 server",
            "50000 SENDFAIL s2.1.3 IgniteCheckedException:Failed", "50100 PUTFAIL c.1 CacheException:x"));

        List<Violation> found = FailedCalls.judge(List.of(s1, s2), List.of(pause("s1.0", 55_000)));

        assertEquals(found.toString(), 2, found.size());
        assertTrue(found.toString(), found.stream().allMatch(v -> v.check.equals(Violation.CALLS)
            && v.detail.startsWith("s2.1 ")));

        // Long before the fault aimed at it, a failure is one too.
        assertEquals(1, FailedCalls.judge(List.of(s1), List.of(pause("s1.0", 500_000))).size());
    }
}
