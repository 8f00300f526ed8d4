package io.zkion.discovery.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.Deflater;
import java.util.zip.InflaterInputStream;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;

/**
 * The shape Ignite 2.17's ZooKeeper SPI compresses in, written from its description: marshal to a full
 * array, then deflate that array into an array of the same size, and read back through
 * {@link InflaterInputStream}. The baseline for compatibility tests and benchmarks; not used in production.
 */
public final class LegacyZip {
    private LegacyZip() {
    }

    public static byte[] marshalZip(Marshaller marsh, Object obj) throws IgniteCheckedException {
        return zip(marsh.marshal(obj));
    }

    static byte[] zip(byte[] input) {
        Deflater deflater = new Deflater();

        deflater.setInput(input);
        deflater.finish();

        ByteArrayOutputStream out = new ByteArrayOutputStream(input.length);
        byte[] chunk = new byte[input.length];

        while (!deflater.finished()) {
            int n = deflater.deflate(chunk);

            out.write(chunk, 0, n);
        }

        // Like the original: the deflater is left to the finalizer-free Cleaner, never ended here.
        return out.toByteArray();
    }

    public static <T> T unmarshalZip(Marshaller marsh, byte[] zipped, ClassLoader ldr) throws IgniteCheckedException {
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(zipped))) {
            return marsh.unmarshal(in, ldr);
        }
        catch (IOException e) {
            throw new IgniteCheckedException(e);
        }
    }

    /** Inflates a whole zlib stream, unbounded: tests only. */
    public static byte[] inflate(byte[] zipped) throws IOException {
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(zipped))) {
            return in.readAllBytes();
        }
    }
}
