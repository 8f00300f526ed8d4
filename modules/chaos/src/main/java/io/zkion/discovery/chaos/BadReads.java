package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** The reads the nodes logged as bad (a value other than the one written), with what each node logged after them. */
final class BadReads {
    private BadReads() {
    }

    /** @return One line per bad read: the node, the read and its time, and what followed it. */
    static List<String> of(Collection<NodeHistory> all) {
        List<String> out = new ArrayList<>();

        for (NodeHistory h : all) {
            for (NodeHistory.Line l : h.lines) {
                if (l.kind.equals("GETBAD"))
                    out.add(h.key + " read " + String.join(" ", l.fields) + " at " + l.time + after(h, l));
            }
        }

        return out;
    }

    /** @return What the node logged of a bad read's key right after it (its owners, a read again), or "". */
    private static String after(NodeHistory h, NodeHistory.Line bad) {
        StringBuilder sb = new StringBuilder();

        for (NodeHistory.Line l : h.lines) {
            if (l.time >= bad.time && (l.kind.equals("GETBADAT") || l.kind.equals("REREAD"))
                && l.fields.length > 0 && l.fields[0].equals(bad.fields[0])) {
                sb.append(sb.length() == 0 ? " (then: " : "; ").append(l.kind).append(' ')
                    .append(String.join(" ", Arrays.copyOfRange(l.fields, 1, l.fields.length)));

                if (l.kind.equals("REREAD"))
                    break;
            }
        }

        return sb.length() == 0 ? "" : sb.append(')').toString();
    }
}
