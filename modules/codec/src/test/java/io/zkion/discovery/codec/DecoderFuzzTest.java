package io.zkion.discovery.codec;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormat;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.event.JdkZlibEventFormat;
import io.zkion.discovery.codec.ion.Events;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.ion.NodeRecord;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Both decoders on random, truncated and bit-flipped input. Each case must end, quickly, in a
 * {@link CodecException} or in exactly the original value: the zlib checksum makes anything else a bug.
 */
public class DecoderFuzzTest {
    private static final int CASES = 600;

    /** Generous: a case normally takes well under a millisecond; this only catches hangs. */
    private static final long MAX_CASE_NANOS = 5_000_000_000L;

    private final StreamingZip zip = new StreamingZip(8L << 20);

    @Test(timeout = 120_000) public void ionDecoder() {
        fuzz(new IonEventFormat(zip), 11);
    }

    @Test(timeout = 120_000) public void jdkZlibDecoder() {
        fuzz(new JdkZlibEventFormat(JdkMarshallers.create(), zip), 12);
    }

    /** Raw Ion has no checksum of its own (it is always stored enveloped): only clean failure is required. */
    @Test(timeout = 120_000) public void rawIonRecordDecoder() {
        Random rnd = new Random(13);
        byte[] good = new NodeRecord(Events.node(1), 5, false, new byte[300]).encode();

        for (int i = 0; i < CASES; i++) {
            byte[] bad = mutate(good, rnd, i);

            run(bad, b -> NodeRecord.decode(b, "record"), null);
        }
    }

    private void fuzz(EventFormat format, long seed) {
        Random rnd = new Random(seed);
        int decoded = 0;
        int refused = 0;

        for (int i = 0; i < CASES; i++) {
            EventBatch original = Events.batch(1 + rnd.nextInt(1000), 1 + rnd.nextInt(8), rnd.nextInt(400));
            byte[] bad = mutate(format.encode(original), rnd, i);

            if (run(bad, b -> format.decode(b, "fuzz case " + bad.length), original))
                decoded++;
            else
                refused++;
        }

        // Most mutations must be caught; a few (flips in ignored bits) may decode, and then to the original.
        assertTrue("refused=" + refused + " decoded=" + decoded, refused > CASES / 2);
    }

    /** @return Whether the input decoded (to {@code expected}, when given). */
    private static <T> boolean run(byte[] input, Function<byte[], T> decoder, T expected) {
        long start = System.nanoTime();

        try {
            T result = decoder.apply(input);

            if (expected != null)
                assertEquals("A damaged payload decoded to something else", expected, result);

            return true;
        }
        catch (CodecException e) {
            assertTrue("An error must say what was wrong", e.getMessage() != null && e.getMessage().length() > 10);

            return false;
        }
        catch (RuntimeException | Error e) {
            if (e instanceof AssertionError)
                throw e;

            fail("Bad input must fail with a CodecException, not " + e);

            return false;
        }
        finally {
            long took = System.nanoTime() - start;

            assertTrue("A case took " + took / 1_000_000 + " ms", took < MAX_CASE_NANOS);
        }
    }

    /** Cycles through truncation, bit flips, random bytes and random bytes behind a valid header. */
    public static byte[] mutate(byte[] good, Random rnd, int i) {
        switch (i % 4) {
            case 0:
                return Arrays.copyOf(good, rnd.nextInt(good.length));

            case 1: {
                byte[] b = good.clone();
                int flips = 1 + rnd.nextInt(3);

                for (int f = 0; f < flips; f++)
                    b[rnd.nextInt(b.length)] ^= (byte)(1 << rnd.nextInt(8));

                return b;
            }

            case 2: {
                byte[] b = new byte[rnd.nextInt(2000)];

                rnd.nextBytes(b);

                return b;
            }

            default: {
                byte[] b = good.clone();
                int from = Math.min(b.length - 1, 2 + rnd.nextInt(8));

                for (int k = from; k < b.length; k++)
                    b[k] = (byte)rnd.nextInt();

                return b;
            }
        }
    }
}
