package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The untrimmed entries a node holds, in sequence order. Entries come in order, and the trim takes the oldest: an
 * array appends and finds by binary search. A tree walked on every entry read was some 14 % of a member's discovery
 * thread in a JVM of 300 members at 1,000 (JFR), its nodes cold between two messages.
 */
public final class EntriesBySeq {
    private final ArrayList<LogEntry> bySeq = new ArrayList<>();

    /** Adds {@code e}, in its place; one of the same sequence is replaced. */
    void put(LogEntry e) {
        int n = bySeq.size();

        if (n == 0 || bySeq.get(n - 1).seq < e.seq) {
            bySeq.add(e);
            return;
        }

        int i = indexOf(e.seq);

        if (i >= 0)
            bySeq.set(i, e);
        else
            bySeq.add(-i - 1, e);
    }

    /** @return The entry of sequence {@code seq}, removed; null if there was none. */
    LogEntry remove(long seq) {
        int i = indexOf(seq);

        return i < 0 ? null : bySeq.remove(i);
    }

    boolean contains(long seq) {
        return indexOf(seq) >= 0;
    }

    public boolean isEmpty() {
        return bySeq.isEmpty();
    }

    public int size() {
        return bySeq.size();
    }

    /** @return The oldest entry; null if there is none. */
    public LogEntry oldest() {
        return bySeq.isEmpty() ? null : bySeq.get(0);
    }

    /** @return The newest entry's sequence; -1 if there is none. */
    public long newestSeq() {
        return bySeq.isEmpty() ? -1 : bySeq.get(bySeq.size() - 1).seq;
    }

    /** @return The entries, oldest first: a view, not to be kept across a change. */
    public List<LogEntry> inOrder() {
        return Collections.unmodifiableList(bySeq);
    }

    /** @return The index of {@code seq}, or {@code -(insertion point) - 1}. */
    private int indexOf(long seq) {
        int lo = 0;
        int hi = bySeq.size() - 1;

        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long s = bySeq.get(mid).seq;

            if (s < seq)
                lo = mid + 1;
            else if (s > seq)
                hi = mid - 1;
            else
                return mid;
        }

        return -(lo + 1);
    }
}
