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

    private static byte[] read(String name) throws IOException {
        try (InputStream in = GoldenFixturesTest.class.getClassLoader().getResourceAsStream(Fixtures.DIR + name)) {
            assertNotNull("Missing fixture " + name, in);

            return in.readAllBytes();
        }
    }
}
