package io.zkion.discovery.engine;

import io.zkion.discovery.codec.msg.JoinResult.Refusal;
import org.apache.ignite.spi.IgniteSpiException;

/** The coordinator refused this node's join: the message is its reason, the kind tells whether to ask again. */
final class JoinRefusedException extends IgniteSpiException {
    private static final long serialVersionUID = 1L;

    final Refusal refusal;

    JoinRefusedException(Refusal refusal, String reason) {
        super(reason);
        this.refusal = refusal;
    }
}
