package io.zkion.discovery.member;

import java.util.Arrays;

/**
 * Values by event id, kept in two arrays sorted by id: a member adds each id in the log's order, so nearly every put
 * appends, and the trim drops the oldest. A {@code TreeMap} did the same with a node per entry: at 1,000 members,
 * with a thousand messages awaiting their trim in each, walking those nodes was a twelfth of a member's CPU in a
 * stream of messages (JFR). A takeover adds the entries before its join, newest first, below the rest: those are put
 * in front.
 */
final class EventIdMap<V> {
    private long[] ids = new long[16];
    private Object[] values = new Object[16];

    /** The entries are at [head, tail). */
    private int head;
    private int tail;

    int size() {
        return tail - head;
    }

    boolean isEmpty() {
        return head == tail;
    }

    void put(long id, V v) {
        if (isEmpty() || id > ids[tail - 1]) {
            if (tail == ids.length)
                resize(0);

            ids[tail] = id;
            values[tail++] = v;

            return;
        }

        int at = Arrays.binarySearch(ids, head, tail, id);

        if (at >= 0) {
            values[at] = v;
            return;
        }

        at = -at - 1;

        if (at == head) {
            if (head == 0)
                resize(Math.max(16, size()));

            ids[--head] = id;
            values[head] = v;

            return;
        }

        // Between two ids already here: no caller does that but by mistake; it is kept right, not fast.
        if (tail == ids.length) {
            at -= head;
            resize(0);
        }

        System.arraycopy(ids, at, ids, at + 1, tail - at);
        System.arraycopy(values, at, values, at + 1, tail - at);
        ids[at] = id;
        values[at] = v;
        tail++;
    }

    @SuppressWarnings("unchecked")
    V get(long id) {
        int at = Arrays.binarySearch(ids, head, tail, id);

        return at < 0 ? null : (V)values[at];
    }

    /** Drops every entry with an id up to {@code id}. */
    void removeUpTo(long id) {
        while (head < tail && ids[head] <= id)
            values[head++] = null;

        if (head == tail)
            head = tail = 0;
    }

    /** Moves the entries to arrays with {@code front} free slots before them and as many again after, at least. */
    private void resize(int front) {
        int n = size();
        int cap = Math.max(16, front + 2 * n);
        long[] ids2 = new long[cap];
        Object[] values2 = new Object[cap];

        System.arraycopy(ids, head, ids2, front, n);
        System.arraycopy(values, head, values2, front, n);
        ids = ids2;
        values = values2;
        head = front;
        tail = front + n;
    }
}
