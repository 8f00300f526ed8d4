package io.zkion.discovery.codec.zip;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Supplier;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.PayloadTooLargeException;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;

/**
 * Compressed marshalling that never holds the uncompressed form whole.
 * <p>
 * Writing streams the marshaller's output through a buffered {@link java.util.zip.DeflaterOutputStream}
 * at default settings, so the result is a plain zlib stream that Ignite's own
 * {@code InflaterInputStream} + unmarshal reads unchanged. Reading checks the whole stream first
 * (zlib checksum, size limit, no trailing bytes) and only then hands it to the decoder: a corrupt or
 * truncated payload fails with a {@link CorruptPayloadException} before a decoder can be fooled into a
 * huge allocation by a flipped length field.
 * <p>
 * Instances are immutable and thread-safe.
 */
public final class StreamingZip {
    /** Default limit on the inflated size of one payload. */
    public static final long DEFAULT_MAX_INFLATED_BYTES = 256L * 1024 * 1024;

    private static final StreamingZip DEFAULT = new StreamingZip(DEFAULT_MAX_INFLATED_BYTES);

    private static final byte[] NO_PREFIX = new byte[0];

    /** Payloads that inflate to at most this are inflated once, into per-thread memory, and read from there. */
    private static final int SMALL_INFLATED = 64 * 1024;

    private final long maxInflatedBytes;

    /** Where deflaters come from; tests substitute one that records {@link Deflater#end()}. */
    private final Supplier<Deflater> deflaters;

    public StreamingZip(long maxInflatedBytes) {
        this(maxInflatedBytes, Deflater::new);
    }

    StreamingZip(long maxInflatedBytes, Supplier<Deflater> deflaters) {
        if (maxInflatedBytes <= 0)
            throw new IllegalArgumentException("maxInflatedBytes must be positive: " + maxInflatedBytes);

        this.maxInflatedBytes = maxInflatedBytes;
        this.deflaters = deflaters;
    }

    /**
     * @return An instance with the same limit whose zlib streams use stored blocks (no compression): for values that
     *      are embedded in a payload which is itself compressed, so that one stream compresses them together (node
     *      records repeat each other's attribute names; separate streams cannot see that). The output is still a
     *      standard zlib stream, and reads back the same way.
     */
    public StreamingZip stored() {
        return new StreamingZip(maxInflatedBytes, () -> new Deflater(Deflater.NO_COMPRESSION));
    }

    /** @return An instance with {@link #DEFAULT_MAX_INFLATED_BYTES}. */
    public static StreamingZip defaults() {
        return DEFAULT;
    }

    /** Marshals {@code obj} straight into a zlib stream. */
    public byte[] marshalZip(Marshaller marsh, Object obj) throws IgniteCheckedException {
        return IgniteMarshalling.marshalZip(this, marsh, obj);
    }

    /** Reads what {@link #marshalZip} (or Ignite's materialise-then-zip) wrote. */
    public <T> T unmarshalZip(Marshaller marsh, byte[] zipped, ClassLoader ldr, String what)
        throws IgniteCheckedException {
        return IgniteMarshalling.unmarshalZip(this, marsh, zipped, ldr, what);
    }

    /**
     * Compresses what {@code writer} writes. The Deflater is ended on every path.
     *
     * @throws CodecException If the writer fails; its exception is the cause.
     */
    public byte[] zip(PayloadWriter writer) {
        return zip(NO_PREFIX, writer);
    }

    /**
     * Like {@link #zip(PayloadWriter)}, with {@code prefix} written uncompressed before the zlib stream: a
     * format header that a reader must see before it inflates anything.
     */
    public byte[] zip(byte[] prefix, PayloadWriter writer) {
        ZipScratch scratch = ZipScratch.claim();
        Deflater deflater = deflaters.get();

        try {
            scratch.out().write(prefix, 0, prefix.length);

            PooledStreams.Deflating deflating = new PooledStreams.Deflating(scratch.out(), deflater, scratch.deflated);
            OutputStream buffered = new PooledStreams.Buffered(deflating, scratch.stage);

            writer.writeTo(buffered);

            buffered.flush();
            deflating.finish();

            return scratch.out().toByteArray();
        }
        catch (CodecException e) {
            throw e;
        }
        catch (Exception e) {
            throw new CodecException("Failed to write a compressed payload: " + e, e);
        }
        finally {
            deflater.end();
            scratch.release();
        }
    }

    /**
     * Verifies {@code zipped} and then lets {@code reader} decode its inflated bytes.
     *
     * @param what What the bytes are, for error messages (a znode path, say).
     */
    public <T> T unzip(byte[] zipped, String what, PayloadReader<T> reader) {
        return unzip(zipped, 0, what, reader);
    }

    /** Like {@link #unzip(byte[], String, PayloadReader)}, for a zlib stream that starts at {@code off}. */
    public <T> T unzip(byte[] zipped, int off, String what, PayloadReader<T> reader) {
        ZipScratch scratch = ZipScratch.claim();

        try {
            // Most payloads are small: inflated once into this thread's scratch, checked, and read from memory.
            if (inflate(zipped, off, what, scratch, SMALL_INFLATED) >= 0) {
                try {
                    return reader.readFrom(scratch.out().asInputStream());
                }
                catch (CodecException e) {
                    throw e;
                }
                catch (Exception e) {
                    throw new CorruptPayloadException("Failed to decode " + what + " (" + zipped.length
                        + " bytes, " + scratch.out().size() + " inflated): " + e.getMessage(), e);
                }
            }
        }
        finally {
            scratch.release();
        }

        // A large one is verified whole first, then streamed to the reader: never held inflated in full.
        long inflatedSize = verify(zipped, off, what);
        Inflater inflater = new Inflater();
        InputStream raw = new ByteArrayInputStream(zipped, off, zipped.length - off);

        try (InputStream in = new InflaterInputStream(raw, inflater, 4096)) {
            return reader.readFrom(in);
        }
        catch (CodecException e) {
            throw e;
        }
        catch (Exception e) {
            throw new CorruptPayloadException("Failed to decode " + what + " (" + zipped.length
                + " bytes, " + inflatedSize + " inflated): " + e.getMessage(), e);
        }
        finally {
            inflater.end();
        }
    }

    /**
     * Inflates {@code zipped} into nothing, checking the zlib checksum, the size limit and that nothing follows
     * the stream.
     *
     * @return The inflated size.
     */
    public long verify(byte[] zipped, String what) {
        return verify(zipped, 0, what);
    }

    /** Like {@link #verify(byte[], String)}, for a zlib stream that starts at {@code off}. */
    public long verify(byte[] zipped, int off, String what) {
        ZipScratch scratch = ZipScratch.claim();

        try {
            return inflate(zipped, off, what, scratch, 0);
        }
        finally {
            scratch.release();
        }
    }

    /**
     * Inflates a whole zlib stream into memory, with the checks of {@link #verify}. For formats whose
     * readers need the bytes in an array (ion-java copies values only out of arrays).
     */
    public byte[] inflate(byte[] zipped, int off, String what) {
        ZipScratch scratch = ZipScratch.claim();

        try {
            inflate(zipped, off, what, scratch, Long.MAX_VALUE);

            return scratch.out().toByteArray();
        }
        finally {
            scratch.release();
        }
    }

    /** Reads inflated bytes out of an array, while the array is lent. */
    @FunctionalInterface
    public interface ArrayReader<T> {
        T read(byte[] buf, int len) throws Exception;
    }

    /**
     * Like {@link #inflate(byte[], int, String)}, lending the inflated bytes to {@code reader} in this thread's
     * working memory instead of copying them out: for readers that copy what they keep (ion-java does).
     */
    public <T> T inflateAndRead(byte[] zipped, int off, String what, ArrayReader<T> reader) throws Exception {
        ZipScratch scratch = ZipScratch.claim();

        try {
            inflate(zipped, off, what, scratch, Long.MAX_VALUE);

            return reader.read(scratch.out().array(), scratch.out().size());
        }
        finally {
            scratch.release();
        }
    }

    /**
     * Like {@link #inflateAndRead}, for readers that need only the start of the stream (a joiner wants a member's node,
     * the first field of its data znode, not the joining data after it). Inflates a prefix and lends it to
     * {@code reader}; while the reader fails on it, inflates more, up to the whole stream, which is then checked and
     * read as {@link #inflateAndRead} would. A value read from a prefix is not covered by the stream's checksum:
     * callers keep it only if it carries a check of its own (a node is itself a zlib stream).
     *
     * @param firstBytes How much to inflate before the first try.
     */
    public <T> T inflatePrefixAndRead(byte[] zipped, int off, String what, int firstBytes, ArrayReader<T> reader)
        throws Exception {
        requireStream(zipped, off, what);

        ZipScratch scratch = ZipScratch.claim();

        try {
            Inflater inflater = new Inflater();

            try {
                inflater.setInput(zipped, off, zipped.length - off);

                return readGrowing(inflater, zipped, what, firstBytes, scratch, reader);
            }
            finally {
                inflater.end();
            }
        }
        finally {
            scratch.release();
        }
    }

    private <T> T readGrowing(Inflater inflater, byte[] zipped, String what, int firstBytes, ZipScratch scratch,
        ArrayReader<T> reader) throws Exception {
        long total = 0;

        for (long want = firstBytes; ; want += Math.max(ZipScratch.STAGE_SIZE, want / 2)) {
            total = pump(inflater, zipped, what, scratch, scratch.out(), Long.MAX_VALUE, want, total);

            try {
                return reader.read(scratch.out().array(), scratch.out().size());
            }
            catch (Exception e) {
                // The whole stream, checked: the reader's failure on it is the one reported. A prefix may end inside
                // what the reader needs: a longer one next.
                if (inflater.finished())
                    throw e;
            }
        }
    }

    /**
     * Inflates and checks a whole zlib stream, keeping up to {@code keep} inflated bytes in the scratch's output.
     *
     * @return The inflated size, or -1 if it passed {@code keep} (then nothing is kept and the rest is not read).
     */
    private long inflate(byte[] zipped, int off, String what, ZipScratch scratch, long keep) {
        requireStream(zipped, off, what);

        Inflater inflater = new Inflater();

        try {
            inflater.setInput(zipped, off, zipped.length - off);

            return pump(inflater, zipped, what, scratch, keep > 0 ? scratch.out() : null, keep, Long.MAX_VALUE, 0);
        }
        finally {
            inflater.end();
        }
    }

    private static void requireStream(byte[] zipped, int off, String what) {
        if (zipped == null || zipped.length <= off)
            throw new CorruptPayloadException(what + " is empty: expected a zlib stream");
    }

    /**
     * Inflates until the stream ends or {@code stopAt} bytes are out, writing up to {@code keep} of them into
     * {@code into} (if any), with every check: the size limit, a truncated or corrupt stream, bytes after its end.
     *
     * @param total What was inflated before this call.
     * @return The inflated size so far, or -1 if it passed {@code keep} (then {@code into} is emptied).
     */
    private long pump(Inflater inflater, byte[] zipped, String what, ZipScratch scratch, ByteSink into, long keep,
        long stopAt, long total) {
        try {
            byte[] chunk = scratch.stage;

            while (!inflater.finished() && total < stopAt) {
                int n = inflater.inflate(chunk);

                total += n;

                if (total > maxInflatedBytes)
                    throw new PayloadTooLargeException(what, maxInflatedBytes);

                if (into != null && total > keep) {
                    into.reset();
                    return -1;
                }

                if (into != null)
                    into.write(chunk, 0, n);

                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new CorruptPayloadException("Truncated zlib stream in " + what + ": input ended after "
                        + zipped.length + " bytes, " + total + " inflated, before the end of the stream");
                }
            }

            if (inflater.finished() && inflater.getRemaining() > 0) {
                throw new CorruptPayloadException(what + " has " + inflater.getRemaining()
                    + " unexpected bytes after the end of its zlib stream");
            }

            return total;
        }
        catch (DataFormatException e) {
            throw new CorruptPayloadException("Corrupt zlib stream in " + what + " (" + zipped.length + " bytes): "
                + e.getMessage(), e);
        }
    }
}
