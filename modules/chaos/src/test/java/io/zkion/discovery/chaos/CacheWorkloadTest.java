package io.zkion.discovery.chaos;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The versioned writes' judgement: a read keeps an acknowledged write only at its version or a later one. */
public class CacheWorkloadTest {
    private static final String KEY = "c1.2.17";

    @Test public void aReadKeepsTheAcknowledgedVersionOrALaterOne() {
        assertTrue(CacheWorkload.keeps(KEY, 3, CacheWorkload.value(KEY, 3)));
        assertTrue("the writer went on", CacheWorkload.keeps(KEY, 3, CacheWorkload.value(KEY, 4)));
    }

    /** The defects it is there to see: a lost update, a lost key, another key's value. */
    @Test public void anOlderVersionAMissingKeyOrAnotherKeysValueIsALostUpdate() {
        assertFalse(CacheWorkload.keeps(KEY, 3, CacheWorkload.value(KEY, 2)));
        assertFalse(CacheWorkload.keeps(KEY, 1, null));
        assertFalse(CacheWorkload.keeps(KEY, 1, CacheWorkload.value("c1.2.18", 9)));
        assertFalse(CacheWorkload.keeps(KEY, 1, KEY + "#x"));
    }

    @Test public void versionsRoundTrip() {
        assertEquals(41, CacheWorkload.version(KEY, CacheWorkload.value(KEY, 41)));
        assertEquals(0, CacheWorkload.version(KEY, null));
        assertEquals(-1, CacheWorkload.version(KEY, "v-" + KEY));
    }
}
