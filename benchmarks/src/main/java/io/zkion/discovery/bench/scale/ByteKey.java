package io.zkion.discovery.bench.scale;

import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A byte array as a map key, hashed whole by CRC-32C, which the JIT runs on the CPU's own instruction.
 * <p>
 * Why whole, and why CRC-32C (JFR, 2026-11-26 and 27): hashing every byte of every array read the way ByteBuffer does
 * cost a fifth of the members' CPU in a 300-member storm; {@code Arrays.hashCode} of each decoded node, a quarter. A
 * hash of 32 sampled bytes gave every custom message's body (text on every even byte) the same hash, and lookups
 * through that one bin took two fifths of a 300-member JVM's CPU in a stream of messages at 1,000. Two members' nodes
 * differ in a few bytes only. Work no real node does, any of it.
 */
final class ByteKey {
    private final byte[] b;
    private final int hash;

    ByteKey(byte[] b) {
        CRC32C crc = new CRC32C();

        crc.update(b, 0, b.length);
        this.b = b;
        this.hash = (int)crc.getValue();
    }

    @Override public int hashCode() {
        return hash;
    }

    @Override public boolean equals(Object o) {
        return o instanceof ByteKey && Arrays.equals(b, ((ByteKey)o).b);
    }
}
