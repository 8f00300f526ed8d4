package io.zkion.discovery.codec.zip;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * The JDK's buffered and deflating streams, but over arrays we keep per thread. Both JDK classes
 * expose their buffer as a protected field, so we hand them ours instead of letting each call
 * allocate 8 KB that it throws away (the regression IGNITE-28848 paid on small payloads).
 */
final class PooledStreams {
    private PooledStreams() {
    }

    /**
     * A {@link BufferedOutputStream} over a caller-owned buffer. Closing it only flushes: payload writers
     * (an Ion writer, say) close what they are given, and the deflater must still be finished after them.
     */
    static final class Buffered extends BufferedOutputStream {
        Buffered(OutputStream out, byte[] buffer) {
            super(out, 1);
            buf = buffer;
        }

        @Override public void close() throws IOException {
            flush();
        }
    }

    /** A {@link DeflaterOutputStream} over a caller-owned buffer and deflater; the caller ends the deflater. */
    static final class Deflating extends DeflaterOutputStream {
        Deflating(OutputStream out, Deflater deflater, byte[] buffer) {
            super(out, deflater, 1);
            buf = buffer;
        }
    }
}
