package io.zkion.discovery.zk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32;

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

    /** Reads one part of a manifest's payload. */
    interface PartReader {
        byte[] read(String path, PartsManifest m, int k) throws Exception;
    }

    /**
     * @return The payload of the manifest at {@code path}: its parts read in order, their size and CRC32 checked
     *      against this manifest's.
     */
    byte[] assemble(String path, PartReader reader) throws Exception {
        // Sized by the parts read, not by the manifest: a corrupt one may declare 2 GB over a few bytes of parts.
        List<byte[]> parts = new ArrayList<>();
        long pos = 0;

        for (int k = 0; k < count; k++) {
            byte[] part = reader.read(path, this, k);

            pos += part.length;

            if (pos > totalSize)
                throw new ZkDataException(path + ": its parts add up to more than the " + totalSize + " bytes it declares");

            parts.add(part);
        }

        if (pos != totalSize)
            throw new ZkDataException(path + ": its parts add up to " + pos + " bytes, it declares " + totalSize);

        byte[] out = new byte[totalSize];
        int at = 0;

        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }

        CRC32 crc = new CRC32();

        crc.update(out);

        if (crc.getValue() != crc32)
            throw new ZkDataException(path + ": the CRC32 of its " + count + " parts does not match its manifest");

        return out;
    }

    String partPath(ZkPaths paths, int k) {
        return paths.parts + "/" + blobId + "-" + k;
    }
}
