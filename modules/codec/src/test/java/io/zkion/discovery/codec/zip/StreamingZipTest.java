package io.zkion.discovery.codec.zip;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.LegacyZip;
import io.zkion.discovery.codec.PayloadTooLargeException;
import io.zkion.discovery.codec.Payloads;
import io.zkion.discovery.codec.event.JdkMarshallers;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class StreamingZipTest {
    private final Marshaller marsh = JdkMarshallers.create();
    private final StreamingZip zip = StreamingZip.defaults();

    /** Streaming and legacy output inflate to the marshaller's bytes, and each side reads the other's output. */
    @Test public void streamingAndLegacyAreInterchangeable() throws Exception {
        for (Payloads p : Payloads.values()) {
            Object obj = p.create();
            byte[] plain = marsh.marshal(obj);
            byte[] streaming = zip.marshalZip(marsh, obj);
            byte[] legacy = LegacyZip.marshalZip(marsh, obj);

            assertArrayEquals(p.name(), plain, LegacyZip.inflate(streaming));
            assertArrayEquals(p.name(), plain, LegacyZip.inflate(legacy));
            // Default settings on both sides: not only equivalent, the very same zlib stream.
            assertArrayEquals(p.name(), legacy, streaming);

            assertEquals(p.name(), obj, LegacyZip.unmarshalZip(marsh, streaming, null));
            assertEquals(p.name(), obj, zip.unmarshalZip(marsh, legacy, null, p.name()));
            assertEquals(p.name(), obj, zip.unmarshalZip(marsh, streaming, null, p.name()));
        }
    }

    /** Stored blocks: a standard zlib stream any reader inflates, and what a compressing outer stream still finds. */
    @Test public void storedStreamsReadBackAndCompressTogether() throws Exception {
        StreamingZip stored = zip.stored();
        Object obj = Payloads.MAP_2K.create();
        byte[] plain = marsh.marshal(obj);
        byte[] s = stored.marshalZip(marsh, obj);

        assertArrayEquals(plain, LegacyZip.inflate(s));
        assertEquals(obj, zip.unmarshalZip(marsh, s, null, "stored"));
        assertTrue("stored is not compressed: " + s.length, s.length > plain.length);

        // Two similar values (as node records are) inside one compressed stream: stored, the outer stream finds what
        // they share; compressed one by one, their bytes differ from the first difference on and it finds little.
        java.util.Map<String, String> other = new java.util.HashMap<>((java.util.Map<String, String>)obj);

        other.put("first-difference", "x");

        byte[] s2 = stored.marshalZip(marsh, other);
        byte[] c1 = zip.marshalZip(marsh, obj);
        byte[] c2 = zip.marshalZip(marsh, other);
        int storedTogether = zip.zip(out -> { out.write(s); out.write(s2); }).length;
        int compressedTogether = zip.zip(out -> { out.write(c1); out.write(c2); }).length;

        assertTrue(storedTogether + " vs " + compressedTogether, storedTogether < compressedTogether * 0.75);
    }

    @Test public void payloadSizesMatchTheirNames() throws Exception {
        assertBetween(1_400, 1_800, marsh.marshal(Payloads.MAP_2K.create()).length);
        assertBetween(120_000, 145_000, marsh.marshal(Payloads.MAP_100K.create()).length);
        assertBetween(1_550_000, 1_750_000, marsh.marshal(Payloads.LIST_1M.create()).length);
    }

    /** The deflater is ended whether the marshaller succeeds or throws. */
    @Test public void deflaterIsEndedOnEveryPath() throws Exception {
        AtomicInteger created = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        StreamingZip counting = new StreamingZip(1 << 20, () -> {
            created.incrementAndGet();

            return new Deflater() {
                @Override public void end() {
                    ended.incrementAndGet();
                    super.end();
                }
            };
        });

        counting.zip(out -> out.write(new byte[10_000]));

        try {
            counting.zip(out -> {
                out.write(new byte[20_000]);

                throw new IOException("disk on fire");
            });

            fail("The writer's exception must surface");
        }
        catch (CodecException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("disk on fire"));
        }

        try {
            counting.marshalZip(marsh, new Object() { });
            fail("A non-serializable object must fail");
        }
        catch (IgniteCheckedException expected) {
            // The marshaller's own failure, wrapped.
        }

        assertEquals(3, created.get());
        assertEquals(3, ended.get());

        // The per-thread scratch was released on the failing paths too.
        assertArrayEquals(new byte[100], LegacyZip.inflate(counting.zip(out -> out.write(new byte[100]))));
    }

    /** A nested call on the same thread (a marshaller zipping inside writeObject) gets its own scratch. */
    @Test public void nestedCallsDoNotShareScratch() throws Exception {
        byte[] inner = new byte[5000];
        Arrays.fill(inner, (byte)7);

        byte[] outer = zip.zip(out -> {
            out.write(1);
            byte[] nested = zip.zip(o -> o.write(inner));
            out.write(nested);
            out.write(2);
        });

        byte[] plain = LegacyZip.inflate(outer);

        assertEquals(1, plain[0]);
        assertEquals(2, plain[plain.length - 1]);
        assertArrayEquals(inner, LegacyZip.inflate(Arrays.copyOfRange(plain, 1, plain.length - 1)));
    }

    /** 512 MB of zeros, about 0.5 MB compressed: refused at the limit, naming it, without inflating it all. */
    @Test(timeout = 30_000) public void zipBombIsRefusedNamingTheLimit() throws Exception {
        byte[] bomb = zeros(512L << 20);
        StreamingZip small = new StreamingZip(1 << 20);

        try {
            small.unmarshalZip(marsh, bomb, null, "/zk/bomb");
            fail();
        }
        catch (PayloadTooLargeException e) {
            assertEquals(1 << 20, e.limit());
            assertTrue(e.getMessage(), e.getMessage().contains("/zk/bomb") && e.getMessage().contains("1048576"));
        }
    }

    @Test public void truncatedInputIsReportedAsTruncated() throws Exception {
        byte[] full = zip.marshalZip(marsh, Payloads.MAP_2K.create());

        for (int len = 1; len < full.length; len += 7) {
            try {
                zip.unmarshalZip(marsh, Arrays.copyOf(full, len), null, "/zk/e");
                fail("Decoded a stream cut at " + len);
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("/zk/e"));
            }
        }
    }

    @Test public void trailingBytesAreRefused() throws Exception {
        byte[] full = zip.marshalZip(marsh, "hello");
        byte[] longer = Arrays.copyOf(full, full.length + 3);

        try {
            zip.unmarshalZip(marsh, longer, null, "x");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("3 unexpected bytes"));
        }
    }

    @Test public void emptyAndGarbageInputAreCorrupt() {
        for (byte[] bad : new byte[][] {new byte[0], {1, 2, 3, 4}, "not zlib at all".getBytes()}) {
            try {
                zip.verify(bad, "bad");
                fail();
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("bad"));
            }
        }
    }

    /**
     * A prefix read: the reader is lent a longer prefix each time it fails, and the whole stream last, checked as a
     * whole read checks it; what it returns from a prefix stands.
     */
    @Test public void prefixReadsGrowUntilTheReaderHasWhatItNeeds() throws Exception {
        byte[] plain = new byte[100_000];

        for (int i = 0; i < plain.length; i++)
            plain[i] = (byte)(i * 31 % 251);

        byte[] zipped = zip.zip(out -> out.write(plain));
        java.util.List<Integer> lent = new java.util.ArrayList<>();

        // Needs 50,000 bytes: fails on shorter prefixes, reads from the first that has them.
        int got = zip.inflatePrefixAndRead(zipped, 0, "x", 16 * 1024, (buf, len) -> {
            lent.add(len);

            if (len < 50_000)
                throw new IllegalStateException("short");

            assertArrayEquals(Arrays.copyOf(plain, 50_000), Arrays.copyOf(buf, 50_000));

            return len;
        });

        assertEquals(lent.get(lent.size() - 1).intValue(), got);
        assertTrue("first lent " + lent, lent.get(0) >= 16 * 1024 && lent.get(0) < 50_000);
        assertTrue("stopped early: " + lent, got < plain.length);

        for (int i = 1; i < lent.size(); i++)
            assertTrue("grew: " + lent, lent.get(i) > lent.get(i - 1));

        // A reader that never has enough meets the whole stream, and its failure on that is the one thrown.
        try {
            zip.inflatePrefixAndRead(zipped, 0, "x", 1024, (buf, len) -> {
                throw new IllegalStateException("never enough at " + len);
            });
            fail();
        }
        catch (IllegalStateException e) {
            assertEquals("never enough at " + plain.length, e.getMessage());
        }
    }

    /** A prefix read still refuses a bomb, a cut stream and trailing bytes, by name, once it reads that far. */
    @Test(timeout = 30_000) public void prefixReadsKeepTheChecks() throws Exception {
        StreamingZip small = new StreamingZip(1 << 20);

        try {
            small.inflatePrefixAndRead(zeros(512L << 20), 0, "/zk/bomb", 1024, (buf, len) -> {
                throw new IllegalStateException("more");
            });
            fail();
        }
        catch (PayloadTooLargeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/zk/bomb"));
        }

        byte[] full = zip.marshalZip(marsh, Payloads.MAP_2K.create());

        for (byte[] bad : new byte[][] {Arrays.copyOf(full, full.length / 2), Arrays.copyOf(full, full.length + 3)}) {
            try {
                zip.inflatePrefixAndRead(bad, 0, "/zk/e", 64, (buf, len) -> {
                    throw new IllegalStateException("more");
                });
                fail();
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("/zk/e"));
            }
        }
    }

    static byte[] zeros(long total) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);

        try (DeflaterOutputStream dos = new DeflaterOutputStream(out, d, 1 << 16)) {
            byte[] chunk = new byte[1 << 20];

            for (long w = 0; w < total; w += chunk.length)
                dos.write(chunk);
        }
        finally {
            d.end();
        }

        return out.toByteArray();
    }

    private static void assertBetween(int lo, int hi, int actual) {
        assertTrue(actual + " not in [" + lo + ", " + hi + "]", actual >= lo && actual <= hi);
    }
}
