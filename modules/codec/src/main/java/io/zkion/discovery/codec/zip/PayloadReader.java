package io.zkion.discovery.codec.zip;

import java.io.InputStream;

/** Reads one payload from its inflated stream. */
@FunctionalInterface
public interface PayloadReader<T> {
    T readFrom(InputStream in) throws Exception;
}
