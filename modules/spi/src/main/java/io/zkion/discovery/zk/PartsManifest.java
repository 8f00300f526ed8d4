package io.zkion.discovery.zk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * The small znode that stands for a payload split into parts: how many parts, the total size and a CRC32,
 * all checked before the pieces are handed back. Its magic {@code ZKPARTS} cannot begin a payload: those
 * start with {@code ZK} and a small version byte, or with a zlib header.
 */
final class PartsManifest {
    private static final byte[] MAGIC = "ZKPARTS".getBytes(StandardCharsets.US_ASCII);
    private static final int LENGTH = MAGIC.length + 1 + 16 + 4 + 4 + 8;

    final UUID blobId;
    final int count;
    final int totalSize;
    final long crc32;

    PartsManifest(UUID blobId, int count, int totalSize, long crc32) {
        this.blobId = blobId;
        this.count = count;
        this.totalSize = totalSize;
        this.crc32 = crc32;
    }

    /**
     * @return Whether {@code data} is a manifest of any version, whatever its length: a newer release's manifest
     *      must be refused as one, by its version, not read as a payload.
     */
    static boolean isManifest(byte[] data) {
        return data != null && data.length > MAGIC.length && Arrays.equals(Arrays.copyOf(data, MAGIC.length), MAGIC);
    }

    byte[] encode() {
        return ByteBuffer.allocate(LENGTH).put(MAGIC).put((byte)1)
            .putLong(blobId.getMostSignificantBits()).putLong(blobId.getLeastSignificantBits())
            .putInt(count).putInt(totalSize).putLong(crc32).array();
    }

    static PartsManifest decode(byte[] data, String path) {
        ByteBuffer b = ByteBuffer.wrap(data, MAGIC.length, data.length - MAGIC.length);
        int version = b.get();

        if (version != 1)
            throw new ZkDataException(path + " is a parts manifest of unknown version " + version
                + " (this node reads version 1): a newer release wrote it; upgrade this node");

        if (data.length != LENGTH)
            throw new ZkDataException(path + " is a corrupt parts manifest: " + data.length + " bytes, version 1 has "
                + LENGTH);

        PartsManifest m = new PartsManifest(new UUID(b.getLong(), b.getLong()), b.getInt(), b.getInt(), b.getLong());

        if (m.count <= 0 || m.totalSize < 0)
            throw new ZkDataException(path + " is a corrupt parts manifest: " + m.count + " parts, " + m.totalSize + " bytes");

        return m;
    }

    String partPath(ZkPaths paths, int k) {
        return paths.parts + "/" + blobId + "-" + k;
    }
}
