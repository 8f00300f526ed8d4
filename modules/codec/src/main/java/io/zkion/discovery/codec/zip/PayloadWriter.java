package io.zkion.discovery.codec.zip;

import java.io.OutputStream;

/** Writes one payload's uncompressed form into a stream; {@link StreamingZip} compresses it on the way. */
@FunctionalInterface
public interface PayloadWriter {
    void writeTo(OutputStream out) throws Exception;
}
