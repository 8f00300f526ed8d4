package io.zkion.discovery.codec.msg;

import java.util.Arrays;
import java.util.Random;
import com.amazon.ion.IonType;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.PayloadTooLargeException;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A joiner's read of a member's data znode: the node only, the joining data after it never inflated, and every bad
 * input that touches the node still named.
 */
public class NodeOnlyReadTest {
    /** Small enough that a data znode's whole joining data cannot be inflated under it. */
    private static final long LIMIT = 1 << 20;

    private final ControlCodec codec = new ControlCodec(new StreamingZip(LIMIT));

    @Test public void readsTheNodeOfSmallAndLargeRecords() {
        for (int size : new int[] {10, 12_000, 16 * 1024, 40_000, 300_000}) {
            byte[] node = noise(size, size);
            byte[] data = codec.encode(new NodeData(node, noise(5_000, 1)));

            assertArrayEquals("node of " + size + " B", node, codec.decodeNodeOnly(data, "/r/nodes/n"));
        }
    }

    /**
     * Joining data that would inflate past the limit: the whole record fails as a bomb, the node alone is read. This is
     * what shows the joining data is not inflated at all.
     */
    @Test public void doesNotInflateTheWholeJoiningData() {
        byte[] node = noise(12_000, 3);
        byte[] data = codec.encode(new NodeData(node, new byte[(int)LIMIT * 4]));

        try {
            codec.decodeNodeData(data, "/r/nodes/n");
            fail("a record that inflates past the limit was read whole");
        }
        catch (PayloadTooLargeException expected) {
            // As before: a member applying the join needs the joining data, and is refused it.
        }

        assertArrayEquals(node, codec.decodeNodeOnly(data, "/r/nodes/n"));
    }

    /** A node past the limit is a bomb for the node-only read as for the whole one. */
    @Test public void aNodePastTheLimitIsRefused() {
        byte[] data = codec.encode(new NodeData(new byte[(int)LIMIT * 2], new byte[10]));

        try {
            codec.decodeNodeOnly(data, "/r/nodes/big");
            fail("read a node past the limit");
        }
        catch (PayloadTooLargeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/r/nodes/big"));
        }
    }

    /** A writer that puts the node after the joining data is read on until the node. */
    @Test public void readsOnWhenTheNodeComesLater() {
        byte[] node = noise(20_000, 5);
        byte[] data = codec.ion().wrap(w -> {
            w.stepIn(IonType.STRUCT);
            w.setFieldName(F.JOIN_DATA);
            w.writeBlob(noise(50_000, 6));
            w.setFieldName(F.NODE);
            w.writeBlob(node);
            w.stepOut();
        });

        assertArrayEquals(node, codec.decodeNodeOnly(data, "/r/nodes/n"));
    }

    @Test public void aRecordWithoutANodeIsNamed() {
        byte[] data = codec.ion().wrap(w -> {
            w.stepIn(IonType.STRUCT);
            w.setFieldName(F.JOIN_DATA);
            w.writeBlob(noise(30_000, 7));
            w.stepOut();
        });

        assertFails(data, "/r/nodes/x", "node");
    }

    /** Cut inside the node, or inside the joining data (a node-only read meets the cut too: the prefix ends there). */
    @Test public void aTruncatedRecordIsNamed() {
        byte[] data = codec.encode(new NodeData(noise(30_000, 8), noise(30_000, 9)));

        for (int len : new int[] {6, 100, data.length / 3, data.length - 1}) {
            byte[] cut = Arrays.copyOf(data, len);

            try {
                byte[] node = codec.decodeNodeOnly(cut, "/r/nodes/cut");

                // Only a cut past the node can leave it readable; it must then be the node as written.
                assertTrue("cut at " + len + " of " + data.length, len > data.length / 2);
                assertArrayEquals(noise(30_000, 8), node);
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("/r/nodes/cut"));
            }
        }
    }

    /**
     * A flipped byte anywhere in the record: a node-only read fails naming the znode, or returns the node as written,
     * or returns bytes that fail the node's own zlib checksum, as unmarshalling it checks. It never hands on a changed
     * node that passes: a node read from a prefix is not covered by the record's checksum, but by its own.
     */
    @Test public void aCorruptRecordNeverYieldsAChangedNodeThatPasses() {
        StreamingZip zip = new StreamingZip(LIMIT);
        byte[] node = zip.stored().zip(out -> out.write(text(12_000)));
        byte[] data = codec.encode(new NodeData(node, zip.stored().zip(out -> out.write(text(11_000)))));
        int named = 0;
        int caughtByNode = 0;

        for (int i = 4; i < data.length; i += 7) {
            byte[] bad = data.clone();

            bad[i] ^= 0x5a;

            try {
                byte[] got = codec.decodeNodeOnly(bad, "/r/nodes/bad");

                if (!Arrays.equals(node, got)) {
                    try {
                        zip.verify(got, "the node");
                        fail("a flip at " + i + " changed the node, and its checksum passed");
                    }
                    catch (CorruptPayloadException e) {
                        caughtByNode++;
                    }
                }
            }
            catch (CorruptPayloadException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("/r/nodes/bad"));
                named++;
            }
        }

        assertTrue("no flip was named: " + named, named > 0);
        // Flips in the node's own bytes reach it: the outer stream's checksum is not read before the node is.
        assertTrue("no changed node was caught by its own checksum", caughtByNode > 0);
    }

    private void assertFails(byte[] data, String what, String names) {
        try {
            codec.decodeNodeOnly(data, what);
            fail("read a bad record: " + what);
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(what));
            assertTrue(e.getMessage(), e.getMessage().contains(names));
        }
    }

    /** Bytes that compress as attribute names and values do: repeated words, varied numbers. */
    private static byte[] text(int size) {
        StringBuilder sb = new StringBuilder();
        Random r = new Random(size);

        while (sb.length() < size)
            sb.append("org.apache.ignite.attr").append(r.nextInt(500)).append('=').append(r.nextInt()).append(';');

        return sb.substring(0, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Bytes that compress poorly, so that sizes before and after inflating are alike. */
    private static byte[] noise(int size, long seed) {
        byte[] b = new byte[size];

        new Random(seed).nextBytes(b);

        return b;
    }
}
