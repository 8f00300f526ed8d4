package io.zkion.discovery.member;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/** The pending messages by event id: the orders a member puts them in, and a random walk against a {@code TreeMap}. */
public class EventIdMapTest {
    @Test public void inTheLogsOrderAndTrimmedFromTheOldest() {
        EventIdMap<String> m = new EventIdMap<>();

        for (long id = 1; id <= 100; id++)
            m.put(id * 10, "m" + id);

        assertEquals(100, m.size());
        assertEquals("m37", m.get(370));
        assertNull("no such id", m.get(371));

        m.removeUpTo(375); // Within an entry's ids: those up to its last go.

        assertNull(m.get(370));
        assertEquals("m38", m.get(380));
        assertEquals(63, m.size());

        m.removeUpTo(Long.MAX_VALUE);

        assertTrue(m.isEmpty());
        m.put(5, "after"); // Empty again, so any id is next.
        assertEquals("after", m.get(5));
    }

    @Test public void aTakeoverPutsOlderEntriesInFrontNewestFirst() {
        EventIdMap<String> m = new EventIdMap<>();

        for (long id = 1000; id < 1010; id++)
            m.put(id, "new" + id);

        for (long id = 999; id >= 0; id--) // OlderEntries walks back from the join.
            m.put(id, "old" + id);

        assertEquals(1010, m.size());
        assertEquals("old0", m.get(0));
        assertEquals("old999", m.get(999));
        assertEquals("new1009", m.get(1009));

        m.removeUpTo(999);

        assertEquals(10, m.size());
        assertNull(m.get(999));
    }

    @Test public void behavesAsASortedMap() {
        Random rnd = new Random(20261127);
        EventIdMap<Long> m = new EventIdMap<>();
        TreeMap<Long, Long> model = new TreeMap<>();
        long next = 500;

        for (int step = 0; step < 20_000; step++) {
            int op = rnd.nextInt(100);

            if (op < 70) { // Mostly the next id, as the log gives them.
                next += 1 + rnd.nextInt(3);
                m.put(next, (long)step);
                model.put(next, (long)step);
            }
            else if (op < 80) { // Any id: in front, in between, or one already there.
                long id = rnd.nextInt((int)next + 100);

                m.put(id, (long)step);
                model.put(id, (long)step);
            }
            else if (op < 90 && !model.isEmpty()) {
                long upTo = model.firstKey() + rnd.nextInt(50);

                m.removeUpTo(upTo);
                model.headMap(upTo, true).clear();
            }
            else {
                long id = rnd.nextInt((int)next + 100);

                assertEquals("get " + id + " at step " + step, model.get(id), m.get(id));
            }

            assertEquals("size at step " + step, model.size(), m.size());
        }

        for (Map.Entry<Long, Long> e : model.entrySet())
            assertEquals(e.getValue(), m.get(e.getKey()));
    }
}
