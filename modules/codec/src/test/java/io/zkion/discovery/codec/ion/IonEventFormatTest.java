package io.zkion.discovery.codec.ion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.LegacyZip;
import io.zkion.discovery.codec.UnsupportedFormatException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.event.JdkZlibEventFormat;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class IonEventFormatTest {
    private final IonEventFormat ion = new IonEventFormat(StreamingZip.defaults());
    private final JdkZlibEventFormat jdk = new JdkZlibEventFormat(JdkMarshallers.create(), StreamingZip.defaults());
    private final EventFormats formats = new EventFormats(Arrays.asList(ion, jdk));

    @Test public void roundTripsEveryKind() {
        EventBatch b = Events.batch(41, 10, 300);
        byte[] data = ion.encode(b);

        assertEquals('Z', data[0]);
        assertEquals('K', data[1]);
        assertEquals(1, data[2]);
        assertEquals(b, ion.decode(data, "t"));
        assertEquals(b, formats.decode(data, "t"));
        assertEquals(FormatId.ION_1, EventFormats.detect(data, "t"));
    }

    /** The per-thread writer is reused: every payload must still be a complete, self-contained Ion stream. */
    @Test public void reusedWriterWritesCompleteStreams() {
        EventBatch a = Events.batch(1, 3, 10);
        EventBatch b = Events.batch(9, 2, 20);
        byte[] first = ion.encode(a);

        ion.encode(b);
        new NodeRecord(Events.node(1), 1, false, new byte[3]).encode();

        assertArrayEquals(first, ion.encode(a));
        assertEquals(b, ion.decode(ion.encode(b), "b"));
    }

    /** A payload writer that fails half-way must not poison the next payload on the same thread. */
    @Test public void failedWriteDoesNotPoisonTheNext() {
        try {
            ion.wrap(w -> {
                w.stepIn(com.amazon.ion.IonType.STRUCT);
                throw new IllegalStateException("boom");
            });
            fail();
        }
        catch (RuntimeException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("boom"));
        }

        EventBatch a = Events.batch(1, 3, 10);

        assertEquals(a, ion.decode(ion.encode(a), "a"));
    }

    @Test public void theBodyIsAStandardZlibStream() throws Exception {
        byte[] data = ion.encode(Events.batch(1, 3, 10));
        byte[] plain = LegacyZip.inflate(Arrays.copyOfRange(data, IonEnvelope.LENGTH, data.length));

        // Ion binary version marker.
        assertArrayEquals(new byte[] {(byte)0xE0, 1, 0, (byte)0xEA}, Arrays.copyOf(plain, 4));
    }

    @Test public void jdkFormatIsDetectedAndDecoded() {
        EventBatch b = Events.batch(7, 4, 50);
        byte[] data = jdk.encode(b);

        assertEquals(FormatId.JDK_ZLIB, EventFormats.detect(data, "t"));
        assertEquals(b, formats.decode(data, "t"));
    }

    @Test public void emptyBatchRoundTrips() {
        EventBatch b = new EventBatch(Events.CLUSTER, 3, 99, new ArrayList<>());

        assertEquals(b, ion.decode(ion.encode(b), "t"));
    }

    @Test public void unknownVersionIsRefusedByNumber() {
        byte[] data = ion.encode(Events.batch(1, 2, 10));

        data[2] = 7;

        for (Runnable r : new Runnable[] {() -> ion.decode(data, "/root/log/e-1"), () -> formats.decode(data, "/root/log/e-1")}) {
            try {
                r.run();
                fail();
            }
            catch (UnsupportedFormatException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("version 7") && e.getMessage().contains("/root/log/e-1"));
            }
        }
    }

    @Test public void foreignBytesAreNamed() {
        try {
            formats.decode("{\"json\":1}".getBytes(), "/root/log/e-9");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/log/e-9") && e.getMessage().contains("0x7B"));
        }
    }

    /** ion-2 is ion-1's encoding behind header version 2: detected by it, and refused by a node reading only ion-1. */
    @Test public void ion2IsTheSameIonBehindVersion2() {
        IonEventFormat ion2 = new IonEventFormat(StreamingZip.defaults(), FormatId.ION_2);
        EventBatch b = Events.batch(41, 10, 300);
        byte[] data = ion2.encode(b);

        assertEquals(2, data[2]);
        assertEquals(FormatId.ION_2, EventFormats.detect(data, "t"));
        assertEquals(b, new EventFormats(Arrays.asList(ion2, ion)).decode(data, "t"));

        try {
            formats.decode(data, "/root/log/e-1");
            fail();
        }
        catch (UnsupportedFormatException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("ion-2"));
        }

        try {
            ion.decode(data, "/root/log/e-1");
            fail();
        }
        catch (UnsupportedFormatException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("version 2") && e.getMessage().contains("/root/log/e-1"));
        }
    }

    /** A record by reference leaves the node's bytes out; a snapshot of such records stays small. */
    @Test public void recordsByReferenceRoundTrip() {
        NodeRecord ref = NodeRecord.byReference(Events.node(5), 9, true);
        NodeRecord back = NodeRecord.decode(ref.encode(), "r");

        assertTrue(back.byReference());
        assertEquals(ref, back);
        assertEquals(9, back.order());
        assertTrue(back.client());

        NodeRecord full = new NodeRecord(Events.node(6), 10, false, new byte[4000]);
        TopologySnapshotCodec snaps = new TopologySnapshotCodec(ion, new CopyStats());
        TopologySnapshotCodec.Snapshot s = snaps.decode(snaps.encode(10, Arrays.asList(ref.encode(), full.encode())), "s");

        assertEquals(Arrays.asList(ref, full), s.nodes);
        assertTrue(ref.encode().length + 4000 < full.encode().length);
    }

    @Test public void formatUnknownToTheNodeIsRefused() {
        EventFormats ionOnly = new EventFormats(Arrays.asList(ion));

        try {
            ionOnly.decode(jdk.encode(Events.batch(1, 1, 1)), "x");
            fail();
        }
        catch (UnsupportedFormatException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("jdk-zlib"));
        }
    }

    /** The window without its acked head plus new events: the kept events are byte-copied, none re-encoded. */
    @Test public void windowRewriteCopiesKeptEvents() {
        EventBatch window = Events.batch(100, 20, 200);
        CopyStats stats = new CopyStats();
        IonWindowRewriter rewriter = new IonWindowRewriter(ion, stats);
        List<DiscoveryEvent> appended = Events.sample(120, 3, 64, 5);

        byte[] out = rewriter.rewrite(ion.encode(window), 104, 77, appended, "window");
        EventBatch result = ion.decode(out, "window");

        List<DiscoveryEvent> expected = new ArrayList<>(window.events().subList(5, 20));
        expected.addAll(appended);

        assertEquals(expected, result.events());
        assertEquals(77, result.topVer());
        assertEquals(122, result.eventIdCounter());
        assertEquals(15, stats.copied());
        assertEquals(0, stats.reencoded());
        assertTrue(stats.copiedBytes() > 9 * 200); // 9 of the 15 carry 200 bytes of data
    }

    @Test public void windowRewriteDroppingEverything() {
        CopyStats stats = new CopyStats();
        byte[] out = new IonWindowRewriter(ion, stats).rewrite(ion.encode(Events.batch(1, 5, 10)), 5, 9,
            new ArrayList<>(), "w");
        EventBatch result = ion.decode(out, "w");

        assertTrue(result.events().isEmpty());
        assertEquals(5, result.eventIdCounter());
        assertEquals(0, stats.copied());
    }

    /** A snapshot is assembled from records encoded once: every record is a byte copy. */
    @Test public void snapshotCopiesRecords() {
        List<NodeRecord> nodes = new ArrayList<>();
        List<byte[]> encoded = new ArrayList<>();

        for (int i = 0; i < 12; i++) {
            NodeRecord r = new NodeRecord(Events.node(i), i + 1, i % 4 == 3, new byte[500 + i]);

            nodes.add(r);
            encoded.add(r.encode());
        }

        CopyStats stats = new CopyStats();
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, stats);
        TopologySnapshotCodec.Snapshot snap = codec.decode(codec.encode(12, encoded), "snap");

        assertEquals(12, snap.topVer);
        assertEquals(nodes, snap.nodes);
        // 12 into the snapshot, 12 out of it into the joiner's records.
        assertEquals(24, stats.copied());
        assertEquals(0, stats.reencoded());

        for (int i = 0; i < 12; i++)
            assertArrayEquals("record " + i, encoded.get(i), snap.records.get(i));
    }

    /** A record from outside our symbol table still lands correctly, re-encoded, and is counted so. */
    @Test public void foreignRecordFallsBackToReencoding() {
        byte[] foreign = IonText.parseIon("{id:\"" + Events.node(1) + "\", order:1, client:false, data:{{AAAA}}, extra:x}",
            "foreign");
        CopyStats stats = new CopyStats();
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, stats);
        TopologySnapshotCodec.Snapshot snap = codec.decode(codec.encode(1, Arrays.asList(foreign)), "snap");

        assertEquals(Events.node(1), snap.nodes.get(0).id());
        assertEquals(0, stats.copied());
        assertEquals(2, stats.reencoded());
    }

    /**
     * A field this release does not know (a later one's) stays in the record a joiner keeps, which it copies into the
     * snapshots it writes as coordinator; decoding and encoding the record again would drop it.
     */
    @Test public void joinerKeepsFieldsItDoesNotKnow() {
        byte[] later = IonText.parseIon("{id:\"" + Events.node(1) + "\", order:1, client:false, zone:\"eu-1\"}", "later");
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, new CopyStats());
        TopologySnapshotCodec.Snapshot snap = codec.decode(codec.encode(1, Arrays.asList(later)), "snap");
        String kept = IonText.renderIon(snap.records.get(0), "kept");

        assertEquals(Events.node(1), snap.nodes.get(0).id());
        assertTrue(kept, kept.contains("eu-1"));
        assertFalse("what the joiner kept before", IonText.renderIon(snap.nodes.get(0).encode(), "again").contains("eu-1"));
    }

    /**
     * The same with a field whose name our symbol table has (as a later release could add): the record goes as a byte
     * copy both ways, and the copy keeps the field.
     */
    @Test public void byteCopiedRecordKeepsAFieldItDoesNotRead() {
        byte[] later = IonText.parseIon("{id:\"" + Events.node(1) + "\", order:1, client:false, reason:\"eu-1\"}",
            "later");
        // Encoded through our writer, so that it imports our table as records do.
        CopyStats stats = new CopyStats();
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, stats);
        byte[] record = codec.decode(codec.encode(1, Arrays.asList(later)), "first").records.get(0);
        CopyStats stats2 = new CopyStats();
        TopologySnapshotCodec codec2 = new TopologySnapshotCodec(ion, stats2);
        TopologySnapshotCodec.Snapshot snap = codec2.decode(codec2.encode(1, Arrays.asList(record)), "snap");

        assertEquals(2, stats2.copied());
        assertEquals(0, stats2.reencoded());
        assertArrayEquals(record, snap.records.get(0));
        assertTrue(IonText.renderIon(snap.records.get(0), "kept"), IonText.renderIon(snap.records.get(0), "kept")
            .contains("eu-1"));
        assertEquals(Events.node(1), snap.nodes.get(0).id());
    }

    /** A record whose length runs past the data: refused naming the record, not with ion-java's array error. */
    @Test public void recordCutShortIsRefusedByName() {
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, new CopyStats());
        byte[] payload = codec.encode(1, Arrays.asList(new NodeRecord(Events.node(1), 1, false, new byte[500]).encode()));
        byte[] inner = ion.inflate(payload, "whole");
        byte[] cut = Arrays.copyOf(inner, inner.length - 100);
        byte[] cutPayload = StreamingZip.defaults().zip(Arrays.copyOf(payload, IonEnvelope.LENGTH), out -> out.write(cut));

        try {
            codec.decode(cutPayload, "snap");
            fail("A snapshot whose record is cut short was read");
        }
        catch (io.zkion.discovery.codec.CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("snap node 0 is cut short or malformed"));
        }
    }

    /** A null struct where a record should be is refused as such. */
    @Test public void nullRecordIsRefusedByName() {
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, new CopyStats());
        byte[] nul = IonText.parseIon("null.struct", "null");

        try {
            codec.decode(codec.encode(1, Arrays.asList(nul)), "snap");
            fail("A null record was read");
        }
        catch (io.zkion.discovery.codec.CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("snap node 0: expected a struct, found null.struct"));
        }
    }

    /** A snapshot that promises more records than it holds is refused, naming the first one missing. */
    @Test public void snapshotShortOfItsCountIsRefused() {
        TopologySnapshotCodec codec = new TopologySnapshotCodec(ion, new CopyStats());
        byte[] one = new NodeRecord(Events.node(1), 1, false, null).encode();
        byte[] two = codec.encode(2, Arrays.asList(one, one));
        // The same header over one record: re-wrapped from its Ion text with the second record cut.
        String rendered = new IonText(ion).render(two, "two");
        String cut = rendered.substring(0, rendered.lastIndexOf('{'));

        try {
            codec.decode(new IonText(ion).parse(cut, "cut"), "snap");
            fail("A snapshot one record short was read");
        }
        catch (io.zkion.discovery.codec.CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("snap node 1: expected a struct, found the end of data"));
        }
    }

    @Test public void ionTextRoundTrips() {
        EventBatch b = Events.batch(1, 6, 20);
        IonText text = new IonText(ion);
        String rendered = text.render(ion.encode(b), "t");

        assertTrue(rendered, rendered.contains("kind:joined") || rendered.contains("kind: joined"));
        assertTrue(rendered, rendered.contains(Events.CLUSTER.toString()));
        assertEquals(b, ion.decode(text.parse(rendered, "t"), "t"));
    }

    @Test public void badIonTextIsNamed() {
        try {
            new IonText(ion).parse("{kind: joined, id: ", "dump.ion");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("dump.ion"));
        }
    }
}
