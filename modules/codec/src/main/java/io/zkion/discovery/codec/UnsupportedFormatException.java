package io.zkion.discovery.codec;

/** The payload is in a format or format version this node cannot read. */
public class UnsupportedFormatException extends CodecException {
    private static final long serialVersionUID = 1L;

    public UnsupportedFormatException(String msg) {
        super(msg);
    }
}
