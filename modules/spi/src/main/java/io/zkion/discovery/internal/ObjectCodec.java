package io.zkion.discovery.internal;

import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * Java objects (nodes, discovery data, custom messages) to zlib bytes and back, via Ignite's marshaller. The
 * bytes always end up inside a payload that is compressed as a whole, so the SPI gives this codec a
 * {@link StreamingZip#stored()} instance: compressing twice costs time and finds less.
 */
public final class ObjectCodec {
    private final Marshaller marsh;
    private final StreamingZip zip;
    private final ClassLoader ldr;

    public ObjectCodec(Marshaller marsh, StreamingZip zip, ClassLoader ldr) {
        this.marsh = marsh;
        this.zip = zip;
        this.ldr = ldr;
    }

    public Marshaller marshaller() {
        return marsh;
    }

    public byte[] marshal(Object obj) {
        try {
            return zip.marshalZip(marsh, obj);
        }
        catch (IgniteCheckedException e) {
            throw new IgniteSpiException("Failed to marshal " + obj.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    /** @throws IgniteSpiException Naming {@code what}, if the bytes are bad or a class is missing. */
    public <T> T unmarshal(byte[] data, String what) {
        try {
            return zip.unmarshalZip(marsh, data, ldr, what);
        }
        catch (IgniteCheckedException | CodecException e) {
            throw new IgniteSpiException("Failed to read " + what + ": " + e.getMessage(), e);
        }
    }
}
