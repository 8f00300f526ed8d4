package io.zkion.discovery.codec.ion;

import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.UnsupportedFormatException;

/**
 * The four bytes in front of every Ion payload: magic {@code 'Z' 'K'}, the format version and the
 * compression. A reader learns from them, before it inflates a byte, whether it can read the rest.
 */
public final class IonEnvelope {
    public static final int LENGTH = 4;

    static final byte MAGIC_0 = 'Z';
    static final byte MAGIC_1 = 'K';

    /** The body is a zlib stream. The only compression of version 1. */
    static final byte ZLIB = 1;

    private IonEnvelope() {
    }

    static byte[] header(int version) {
        return new byte[] {MAGIC_0, MAGIC_1, (byte)version, ZLIB};
    }

    /** @return Whether {@code data} starts with the magic, whatever the version. */
    public static boolean hasMagic(byte[] data) {
        return data != null && data.length >= 2 && data[0] == MAGIC_0 && data[1] == MAGIC_1;
    }

    /**
     * Checks the header of {@code data} against the one version this reader knows.
     *
     * @throws UnsupportedFormatException If the version or compression is unknown: a newer node wrote it.
     */
    static void check(byte[] data, int version, String what) {
        if (!hasMagic(data))
            throw new CorruptPayloadException(what + " does not start with the ZkIon magic 'ZK'");

        if (data.length < LENGTH)
            throw new CorruptPayloadException(what + " is truncated: " + data.length + " bytes, the header alone is " + LENGTH);

        int v = data[2] & 0xFF;

        if (v != version) {
            throw new UnsupportedFormatException(what + " is in ZkIon Ion format version " + v
                + ", this node reads version " + version + " only: upgrade this node, or keep the cluster's"
                + " write format at one every node reads");
        }

        if (data[3] != ZLIB)
            throw new UnsupportedFormatException(what + " uses compression " + data[3] + ", this node knows only zlib (1)");
    }
}
