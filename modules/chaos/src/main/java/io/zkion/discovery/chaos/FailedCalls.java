package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A send, a put or a command that failed is a violation unless a fault was aimed at the node that made it: a node
 * killed, paused past its session, expired or cut from its reply may see its calls fail, and nothing else may. A run
 * in which every send failed would otherwise show no violation at all.
 */
final class FailedCalls {
    /** A pause stops the node this long before the fault's time (its SIGCONT): its calls fail from the pause on. */
    private static final long BEFORE_FAULT_MS = 15_000;

    private FailedCalls() {
    }

    static List<Violation> judge(Collection<NodeHistory> all, List<Fault> faults) {
        List<Violation> out = new ArrayList<>();

        for (NodeHistory h : all) {
            for (NodeHistory.Line l : h.lines) {
                if (!l.kind.equals("SENDFAIL") && !l.kind.equals("PUTFAIL") && !l.kind.equals("CMDFAIL"))
                    continue;

                if (!aimedAt(h.key, l.time, faults))
                    out.add(new Violation(Violation.CALLS, h.key + ' ' + l.kind + ' ' + String.join(" ", l.fields)
                        + " at " + l.time + ", with no fault aimed at it"));
            }
        }

        return out;
    }

    private static boolean aimedAt(String key, long time, List<Fault> faults) {
        for (Fault f : faults) {
            String target = f.target == null ? "" : f.target.split(" ")[0];

            if (target.equals(key) && time >= f.injectedAt - BEFORE_FAULT_MS)
                return true;
        }

        return false;
    }
}
