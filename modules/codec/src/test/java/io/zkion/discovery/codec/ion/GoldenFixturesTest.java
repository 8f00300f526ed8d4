package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/** Every version of the codec reads the version 1 fixtures to the same values. */
public class GoldenFixturesTest {
    private final IonEventFormat ion = new IonEventFormat(StreamingZip.defaults());

    @Test public void batchesDecodeToTheSameEvents() throws IOException {
        for (Map.Entry<String, EventBatch> e : Fixtures.batches().entrySet())
            assertEquals(e.getKey(), e.getValue(), ion.decode(read(e.getKey() + ".zki"), e.getKey()));
    }

    @Test public void snapshotDecodesToTheSameNodes() throws IOException {
        TopologySnapshotCodec.Snapshot s = new TopologySnapshotCodec(ion, new CopyStats())
            .decode(read("snapshot-4-nodes.zki"), "snapshot");

        assertEquals(4, s.topVer);
        assertEquals(Fixtures.nodes(), s.nodes);
    }

    /** The text dumps beside the fixtures parse back to the same events: text is a faithful view. */
    @Test public void textDumpsParseToTheSameEvents() throws IOException {
        IonText text = new IonText(ion);

        for (Map.Entry<String, EventBatch> e : Fixtures.batches().entrySet()) {
            String dump = new String(read(e.getKey() + ".ion"), StandardCharsets.UTF_8);

            assertEquals(e.getKey(), e.getValue(), ion.decode(text.parse(dump, e.getKey()), e.getKey()));
        }
    }

    /** ion-2: a join event naming the joiner's data znode, and a snapshot of records by reference. */
    @Test public void ion2FixturesDecodeToTheSameValues() throws IOException {
        IonEventFormat ion2 = new IonEventFormat(StreamingZip.defaults(), io.zkion.discovery.codec.event.FormatId.ION_2);
        EventBatch b = ion2.decode(read(Fixtures2.DIR, "batch-join-by-reference.zki"), "join");

        assertEquals(Fixtures2.joinByReference(), b);

        JoinedEventData d = JoinedEventData.decode(b.events().get(0).data(), "join event");

        assertEquals(null, d.joinData);
        assertEquals(Fixtures2.joinedRecord(), NodeRecord.decode(d.record, "record"));

        TopologySnapshotCodec.Snapshot s = new TopologySnapshotCodec(ion, new CopyStats())
            .decode(read(Fixtures2.DIR, "snapshot-by-reference.zki"), "snapshot");

        assertEquals(Fixtures2.snapshotNodes(), s.nodes);
    }

    private static byte[] read(String name) throws IOException {
        return read(Fixtures.DIR, name);
    }

    private static byte[] read(String dir, String name) throws IOException {
        try (InputStream in = GoldenFixturesTest.class.getClassLoader().getResourceAsStream(dir + name)) {
            assertNotNull("Missing fixture " + name, in);

            return in.readAllBytes();
        }
    }
}
