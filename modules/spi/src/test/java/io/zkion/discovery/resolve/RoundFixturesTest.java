package io.zkion.discovery.resolve;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import org.apache.ignite.spi.IgniteSpiException;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Every build reads the round entries of the fixtures, written at 0.2.0 on Ignite 2.17, to the same values, on both
 * Ignite lines: a log holds them across a rolling upgrade. A change to either class that breaks Java serialization
 * (a field renamed or retyped, a {@code serialVersionUID} changed) fails here.
 */
public class RoundFixturesTest {
    @Test public void roundStartReadsToTheSameRound() throws IOException {
        RoundStart s = RoundFixtures.objects().unmarshal(read("round-start"), "round-start");

        assertEquals(RoundFixtures.ROUND, s.round);
    }

    @Test public void roundEndsReadToTheSameVerdicts() throws IOException {
        RoundEnd two = RoundFixtures.objects().unmarshal(read("round-end-removed-two"), "round-end-removed-two");

        assertEquals(RoundFixtures.ROUND, two.round);
        assertEquals(Arrays.asList(RoundFixtures.KILLED_1, RoundFixtures.KILLED_2), two.killed);
        assertEquals("decided by DefaultCommunicationFailureResolver", two.why);

        RoundEnd none = RoundFixtures.objects().unmarshal(read("round-end-no-change"), "round-end-no-change");

        assertEquals(RoundFixtures.ROUND, none.round);
        assertTrue(none.killed.isEmpty());
        assertEquals("every node reaches every other", none.why);
    }

    /** Every field of every fixture, through toString, which names them all: none is read as a default. */
    @Test public void everyFixtureReadsToItsGeneratorsValue() throws IOException {
        for (Map.Entry<String, RoundMessage> e : RoundFixtures.messages().entrySet()) {
            RoundMessage m = RoundFixtures.objects().unmarshal(read(e.getKey()), e.getKey());

            assertEquals(e.getKey(), e.getValue().toString(), m.toString());
        }
    }

    /** A truncated entry is refused by name, as any custom event of the log. */
    @Test public void aTruncatedEntryIsRefusedByName() throws IOException {
        byte[] b = read("round-end-removed-two");

        try {
            RoundFixtures.objects().unmarshal(Arrays.copyOf(b, b.length / 2), "custom event 42");
            fail("A truncated round entry was read");
        }
        catch (IgniteSpiException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("custom event 42"));
        }
    }

    private static byte[] read(String name) throws IOException {
        try (InputStream in = RoundFixturesTest.class.getClassLoader().getResourceAsStream(RoundFixtures.DIR + name + ".zko")) {
            assertNotNull("Missing fixture " + name, in);

            return in.readAllBytes();
        }
    }
}
