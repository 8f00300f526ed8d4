package io.zkion.discovery.codec.ion;

import com.amazon.ion.IonException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormat;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.zip.StreamingZip;

/**
 * {@link FormatId#ION_1} or {@link FormatId#ION_2}: an {@link IonEnvelope} header, then Ion binary in a zlib
 * stream. The two differ only in what a join event may leave out; the header tells them apart.
 */
public final class IonEventFormat implements EventFormat {
    private final StreamingZip zip;
    private final FormatId id;
    private final int version;
    private final byte[] header;

    /** Version 1: what control records are always written in. */
    public IonEventFormat(StreamingZip zip) {
        this(zip, FormatId.ION_1);
    }

    public IonEventFormat(StreamingZip zip, FormatId id) {
        if (id != FormatId.ION_1 && id != FormatId.ION_2)
            throw new IllegalArgumentException("Not an Ion format: " + id);

        this.zip = zip;
        this.id = id;
        this.version = id == FormatId.ION_1 ? 1 : 2;
        this.header = IonEnvelope.header(version);
    }

    @Override public FormatId id() {
        return id;
    }

    @Override public byte[] encode(EventBatch batch) {
        return wrap(w -> IonEventCodec.writeBatch(w, batch));
    }

    /** Reads a payload written by {@link #wrap}: checks the envelope, inflates, then runs {@code body}. */
    public <T> T unwrap(byte[] payload, String what, IonRead<T> body) {
        IonEnvelope.check(payload, version, what);

        try {
            // The Ion is read where it was inflated: ion-java copies out what the body keeps.
            return zip.inflateAndRead(payload, IonEnvelope.LENGTH, what, (buf, len) -> read(buf, len, what, body));
        }
        catch (CodecException e) {
            throw e;
        }
        catch (Exception e) {
            throw new CorruptPayloadException("Failed to read " + what + ": " + e, e);
        }
    }

    /**
     * Like {@link #unwrap}, for a {@code body} that reads only the start of the payload: inflates as little as it
     * needs ({@link StreamingZip#inflatePrefixAndRead}). What it reads is not covered by the payload's checksum.
     *
     * @param firstBytes Inflated bytes to try {@code body} on first.
     */
    public <T> T unwrapStart(byte[] payload, String what, int firstBytes, IonRead<T> body) {
        IonEnvelope.check(payload, version, what);

        try {
            return zip.inflatePrefixAndRead(payload, IonEnvelope.LENGTH, what, firstBytes,
                (buf, len) -> read(buf, len, what, body));
        }
        catch (CodecException e) {
            throw e;
        }
        catch (Exception e) {
            throw new CorruptPayloadException("Failed to read " + what + ": " + e, e);
        }
    }

    @Override public EventBatch decode(byte[] data, String what) {
        return unwrap(data, what, r -> IonEventCodec.readBatch(r, what));
    }

    /** Checks the envelope and returns the Ion bytes inside, for readers that copy from them. */
    public byte[] inflate(byte[] data, String what) {
        IonEnvelope.check(data, version, what);

        return zip.inflate(data, IonEnvelope.LENGTH, what);
    }

    /** Wraps an Ion body into a payload: {@code body} writes Ion values. */
    public byte[] wrap(PayloadBody body) {
        return zip.zip(header, out -> ReusableIonWriter.write(out, body::write));
    }

    /** Writes Ion values into a payload. */
    @FunctionalInterface
    public interface PayloadBody {
        void write(IonWriter w) throws Exception;
    }

    /** Reads Ion values out of a payload. */
    @FunctionalInterface
    public interface IonRead<T> {
        T read(IonReader r) throws Exception;
    }

    /** Runs {@code body} over the Ion bytes, turning ion-java's errors on bad input into ours. */
    public static <T> T read(byte[] ion, String what, IonRead<T> body) {
        return read(ion, ion.length, what, body);
    }

    private static <T> T read(byte[] ion, int len, String what, IonRead<T> body) {
        try (IonReader r = IonSchema.reader(ion, len)) {
            return body.read(r);
        }
        catch (CodecException e) {
            throw e;
        }
        catch (IonException | IllegalStateException | IllegalArgumentException | UnsupportedOperationException e) {
            throw new CorruptPayloadException("Invalid Ion data in " + what + ": " + e.getMessage(), e);
        }
        catch (Exception e) {
            throw new CorruptPayloadException("Failed to read " + what + ": " + e, e);
        }
    }
}
