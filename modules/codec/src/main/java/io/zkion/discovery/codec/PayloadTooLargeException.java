package io.zkion.discovery.codec;

/** A payload inflates past the configured limit: a zip bomb, or a limit set too low for the cluster. */
public class PayloadTooLargeException extends CodecException {
    private static final long serialVersionUID = 1L;

    private final long limit;

    public PayloadTooLargeException(String what, long limit) {
        super(what + " inflates to more than the limit of " + limit + " bytes"
            + " (raise it with the codec's maxInflatedBytes if the payload is legitimate)");
        this.limit = limit;
    }

    /** @return The limit that was exceeded, in bytes. */
    public long limit() {
        return limit;
    }
}
