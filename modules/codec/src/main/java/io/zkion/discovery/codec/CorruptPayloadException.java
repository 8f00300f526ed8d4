package io.zkion.discovery.codec;

/** The bytes are truncated, bit-flipped or not in the format they claim to be. */
public class CorruptPayloadException extends CodecException {
    private static final long serialVersionUID = 1L;

    public CorruptPayloadException(String msg) {
        super(msg);
    }

    public CorruptPayloadException(String msg, Throwable cause) {
        super(msg, cause);
    }
}
