package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/**
 * The untrimmed entries in sequence order, whatever order they come in: in order as read, older ones taken over by a
 * new coordinator, one read again replacing itself, and trims from the oldest or from anywhere.
 */
public class EntriesBySeqTest {
    private static LogEntry entry(long seq) {
        return new LogEntry(seq, "/log/e-" + seq, seq * 10, Collections.emptyList(), Collections.emptyList(),
            Collections.emptyList(), null);
    }

    @Test public void emptyHasNoOldestNorNewest() {
        EntriesBySeq e = new EntriesBySeq();

        assertTrue(e.isEmpty());
        assertNull(e.oldest());
        assertEquals(-1, e.newestSeq());
        assertNull(e.remove(3));
        assertFalse(e.contains(3));
    }

    @Test public void keepsSequenceOrderAndReplacesTheSameSequence() {
        EntriesBySeq e = new EntriesBySeq();

        e.put(entry(5));
        e.put(entry(7));
        e.put(entry(2)); // An older entry a new coordinator takes over.
        e.put(entry(6));

        LogEntry again = entry(6);

        e.put(again);

        assertEquals(4, e.size());
        assertEquals(2, e.oldest().seq);
        assertEquals(7, e.newestSeq());
        assertSame(again, e.inOrder().get(2));
        assertEquals(5, e.remove(5).seq);
        assertFalse(e.contains(5));
        assertTrue(e.contains(6));
        assertEquals(List.of(2L, 6L, 7L), seqs(e));
    }

    /** A long log trimmed from its head, then a takeover's older entries, newest first as they are adopted. */
    @Test public void trimsFromTheHeadAndTakesOlderEntriesInBulk() {
        EntriesBySeq e = new EntriesBySeq();

        for (long seq = 1000; seq < 3000; seq++)
            e.put(entry(seq));

        for (long seq = 1000; seq < 2990; seq++)
            assertEquals(seq, e.remove(seq).seq);

        assertEquals(10, e.size());
        assertEquals(2990, e.oldest().seq);
        assertFalse(e.contains(2989));

        LogEntry replaced = entry(2995);
        List<LogEntry> older = new ArrayList<>();

        for (long seq = 999; seq >= 900; seq--)
            older.add(entry(seq));

        older.add(replaced);
        e.putAll(older);

        assertEquals(110, e.size());
        assertEquals(900, e.oldest().seq);
        assertEquals(2999, e.newestSeq());
        assertSame(replaced, e.inOrder().get(e.size() - 5));

        List<Long> want = new ArrayList<>();

        for (long seq = 900; seq < 1000; seq++)
            want.add(seq);

        for (long seq = 2990; seq < 3000; seq++)
            want.add(seq);

        assertEquals(want, seqs(e));
    }

    /** Against a TreeMap, the structure it replaces, over random puts, bulk puts and removes. */
    @Test public void actsAsASortedMapBySequence() {
        Random r = new Random(42);
        EntriesBySeq e = new EntriesBySeq();
        TreeMap<Long, LogEntry> ref = new TreeMap<>();

        for (int i = 0; i < 50_000; i++) {
            long seq = r.nextInt(300);

            if (r.nextInt(3) == 0)
                assertSame(ref.remove(seq), e.remove(seq));
            else if (r.nextInt(50) == 0) {
                List<LogEntry> bulk = new ArrayList<>();

                for (int k = r.nextInt(5); k >= 0; k--)
                    bulk.add(entry(r.nextInt(300)));

                for (LogEntry x : bulk)
                    ref.put(x.seq, x);

                e.putAll(bulk);
            }
            else {
                LogEntry x = entry(seq);

                ref.put(seq, x);
                e.put(x);
            }

            assertEquals(ref.size(), e.size());
            assertEquals(ref.isEmpty() ? -1 : ref.lastKey(), e.newestSeq());
            assertSame(ref.isEmpty() ? null : ref.firstEntry().getValue(), e.oldest());
            assertEquals(ref.containsKey(seq), e.contains(seq));
        }

        assertEquals(new ArrayList<>(ref.keySet()), seqs(e));
    }

    private static List<Long> seqs(EntriesBySeq e) {
        List<Long> out = new ArrayList<>();

        for (LogEntry x : e.inOrder())
            out.add(x.seq);

        return out;
    }
}
