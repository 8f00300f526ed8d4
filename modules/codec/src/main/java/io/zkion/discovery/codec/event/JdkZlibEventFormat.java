package io.zkion.discovery.codec.event;

import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;

/**
 * Batches as JDK-serialized objects in a zlib stream, through Ignite's marshaller. The format to roll a
 * cluster from, and the baseline the benchmarks compare Ion with. It has no header: its first byte is
 * the zlib header byte {@code 0x78}, which is how {@link EventFormats} tells it apart.
 */
public final class JdkZlibEventFormat implements EventFormat {
    private final Marshaller marsh;
    private final StreamingZip zip;

    public JdkZlibEventFormat(Marshaller marsh, StreamingZip zip) {
        this.marsh = marsh;
        this.zip = zip;
    }

    @Override public FormatId id() {
        return FormatId.JDK_ZLIB;
    }

    @Override public byte[] encode(EventBatch batch) {
        try {
            return zip.marshalZip(marsh, batch);
        }
        catch (IgniteCheckedException e) {
            throw new IllegalStateException("Failed to encode " + batch, e);
        }
    }

    @Override public EventBatch decode(byte[] data, String what) {
        Object obj;

        try {
            obj = zip.unmarshalZip(marsh, data, EventBatch.class.getClassLoader(), what);
        }
        catch (IgniteCheckedException e) {
            throw new CorruptPayloadException("Failed to decode " + what + " as " + id().wireName() + ": "
                + e.getMessage(), e);
        }

        if (!(obj instanceof EventBatch)) {
            throw new CorruptPayloadException(what + " holds " + (obj == null ? "null" : obj.getClass().getName())
                + ", expected an event batch");
        }

        return (EventBatch)obj;
    }
}
