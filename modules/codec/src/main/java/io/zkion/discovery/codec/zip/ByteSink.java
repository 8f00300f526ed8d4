package io.zkion.discovery.codec.zip;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable in-memory output whose array can be kept between calls, unlike
 * {@link java.io.ByteArrayOutputStream}: reusing it is what keeps small payloads from
 * paying for fresh buffers on every call.
 */
final class ByteSink extends OutputStream {
    private byte[] buf;
    private int count;

    ByteSink(int initialCapacity) {
        buf = new byte[initialCapacity];
    }

    @Override public void write(int b) {
        ensure(count + 1);
        buf[count++] = (byte)b;
    }

    @Override public void write(byte[] b, int off, int len) {
        ensure(count + len);
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    private void ensure(int needed) {
        if (needed < 0)
            throw new OutOfMemoryError("in-memory payload over 2 GiB");

        if (needed > buf.length)
            buf = Arrays.copyOf(buf, Math.max(needed, buf.length << 1));
    }

    int size() {
        return count;
    }

    /** @return The array written into; its first {@link #size()} bytes are the content. */
    byte[] array() {
        return buf;
    }

    int capacity() {
        return buf.length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, count);
    }

    void reset() {
        count = 0;
    }

    /** @return A stream over what was written, without copying it; valid until the next write or reset. */
    java.io.InputStream asInputStream() {
        return new java.io.ByteArrayInputStream(buf, 0, count);
    }
}
