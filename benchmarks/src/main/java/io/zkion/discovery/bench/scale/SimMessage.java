package io.zkion.discovery.bench.scale;

import java.util.Random;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;

/**
 * A custom message of the simulation: an id, and a body the size of a typical Ignite discovery message (a few KB,
 * compressible as marshalled objects are). One that needs Ignite's ack answers {@link #ackMessage()} as Ignite's
 * exchange and metastorage messages do: the SPI then sends the ack once every node has processed the message.
 */
final class SimMessage implements DiscoverySpiCustomMessage {
    private static final long serialVersionUID = 1L;

    /** The body's size: Ignite's own messages of this kind marshal to 1 to 10 KB. */
    static final int BODY = 2048;

    final long id;
    final boolean needsAck;
    private final byte[] body;

    SimMessage(long id, boolean needsAck) {
        this.id = id;
        this.needsAck = needsAck;
        this.body = body(id);
    }

    /** Half repeated text, half random: deflates to about half, as marshalled Ignite messages do. */
    static byte[] body(long seed) {
        byte[] b = new byte[BODY];
        Random r = new Random(seed);

        for (int i = 0; i < b.length; i++)
            b[i] = i % 2 == 0 ? (byte)('a' + i % 26) : (byte)r.nextInt();

        return b;
    }

    @Override public DiscoverySpiCustomMessage ackMessage() {
        return needsAck ? new Ack(id) : null;
    }

    @Override public boolean isMutable() {
        return false;
    }

    @Override public boolean stopProcess() {
        return false;
    }

    /** The ack of a message that needs one. */
    static final class Ack implements DiscoverySpiCustomMessage {
        private static final long serialVersionUID = 1L;

        final long id;

        Ack(long id) {
            this.id = id;
        }

        @Override public DiscoverySpiCustomMessage ackMessage() {
            return null;
        }

        @Override public boolean isMutable() {
            return false;
        }

        @Override public boolean stopProcess() {
            return false;
        }
    }
}
