package io.zkion.discovery.codec;

/**
 * Base of every error the codec raises for bad input. The message always names what was wrong,
 * so that an operator can tell a truncated znode from a foreign format or an oversize payload.
 */
public class CodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CodecException(String msg) {
        super(msg);
    }

    public CodecException(String msg, Throwable cause) {
        super(msg, cause);
    }
}
