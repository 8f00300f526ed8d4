package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The untrimmed entries a node holds, in sequence order, in an array: a read appends at its tail, a trim takes from
 * its head (a moving start, not a shift), and lookups search it by halves. A tree allocated a node and walked its
 * levels on every read, some 14 % of a member's discovery thread in a JVM of 300 members at 1,000 (JFR). Entries older
 * than all held ones come only in bulk, when a node takes over as coordinator ({@link #putAll}).
 */
public final class EntriesBySeq {
    /** Slots before {@link #head} are trimmed and null, until the array is compacted. */
    private final ArrayList<LogEntry> slots = new ArrayList<>();

    private int head;

    /** Adds {@code e}, in its place; one of the same sequence is replaced. */
    void put(LogEntry e) {
        int n = slots.size();

        if (n == head || slots.get(n - 1).seq < e.seq) {
            slots.add(e);
            return;
        }

        int i = indexOf(e.seq);

        if (i >= 0)
            slots.set(i, e);
        else
            slots.add(-i - 1, e);
    }

    /** Adds {@code es} in one go, each in its place: a takeover's older entries, which all go before the rest. */
    void putAll(Collection<LogEntry> es) {
        compact();

        List<LogEntry> fresh = new ArrayList<>(es.size());

        for (LogEntry e : es) {
            int i = indexOf(e.seq); // Searched before anything is appended, while the array is sorted.

            if (i >= 0)
                slots.set(i, e);
            else
                fresh.add(e);
        }

        slots.addAll(fresh);
        slots.sort(Comparator.comparingLong(e -> e.seq)); // Stable; a takeover's run and the rest: one merge.

        // Of two new ones with one sequence, the later stays, as with put.
        for (int i = slots.size() - 1; i > 0; i--) {
            if (slots.get(i - 1).seq == slots.get(i).seq)
                slots.remove(i - 1);
        }
    }

    /** @return The entry of sequence {@code seq}, removed; null if there was none. */
    LogEntry remove(long seq) {
        int i = indexOf(seq);

        if (i < 0)
            return null;

        LogEntry e = slots.get(i);

        if (i == head) {
            slots.set(head++, null);

            if (head > 64 && head > slots.size() / 2)
                compact();
        }
        else
            slots.remove(i);

        return e;
    }

    boolean contains(long seq) {
        return indexOf(seq) >= 0;
    }

    public boolean isEmpty() {
        return slots.size() == head;
    }

    public int size() {
        return slots.size() - head;
    }

    /** @return The oldest entry; null if there is none. */
    public LogEntry oldest() {
        return isEmpty() ? null : slots.get(head);
    }

    /** @return The newest entry's sequence; -1 if there is none. */
    public long newestSeq() {
        return isEmpty() ? -1 : slots.get(slots.size() - 1).seq;
    }

    /** @return The entries, oldest first: a view, not to be kept across a change. */
    public List<LogEntry> inOrder() {
        return Collections.unmodifiableList(slots.subList(head, slots.size()));
    }

    /** Drops the trimmed slots at the head. */
    private void compact() {
        slots.subList(0, head).clear();
        head = 0;
    }

    /** @return The index of {@code seq}, or {@code -(insertion point) - 1}. */
    private int indexOf(long seq) {
        int lo = head;
        int hi = slots.size() - 1;

        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long s = slots.get(mid).seq;

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
