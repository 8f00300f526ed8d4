package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.zip.StreamingZip;

/**
 * The golden fixtures of {@code ion-2}: a log entry whose join event names the joiner's data znode, and a
 * snapshot mixing records by reference with one inline. {@link #main} wrote them once; they are never regenerated.
 */
public final class Fixtures2 {
    static final String DIR = "fixtures/ion-2/";

    private Fixtures2() {
    }

    static NodeRecord joinedRecord() {
        return NodeRecord.byReference(Events.node(7), 12, false);
    }

    /** An entry of ion-2: a join by reference, then a custom event. */
    static EventBatch joinByReference() {
        return new EventBatch(Events.CLUSTER, 12, 1, Arrays.asList(
            DiscoveryEvent.joined(0, 12, Events.node(7), new JoinedEventData(joinedRecord().encode(), null).encode()),
            DiscoveryEvent.custom(1, 12, Events.node(1), new byte[] {9, 8, 7})));
    }

    /** The founder inline (it joined before the cluster wrote ion-2), the others by reference. */
    static List<NodeRecord> snapshotNodes() {
        return Arrays.asList(
            new NodeRecord(Events.node(1), 1, false, new byte[] {1, 2, 3}),
            NodeRecord.byReference(Events.node(2), 2, false),
            NodeRecord.byReference(Events.node(3), 3, true));
    }

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "modules/codec/src/test/resources/" + DIR);
        IonEventFormat ion2 = new IonEventFormat(StreamingZip.defaults(), FormatId.ION_2);
        IonEventFormat ion1 = new IonEventFormat(StreamingZip.defaults());

        Files.createDirectories(dir);
        write(dir, "batch-join-by-reference", ion2.encode(joinByReference()), new IonText(ion2));

        byte[][] records = snapshotNodes().stream().map(NodeRecord::encode).toArray(byte[][]::new);

        // Snapshots travel in a control record's envelope, version 1, whatever the cluster writes.
        write(dir, "snapshot-by-reference", new TopologySnapshotCodec(ion1, new CopyStats()).encode(3, Arrays.asList(records)),
            new IonText(ion1));
    }

    private static void write(Path dir, String name, byte[] data, IonText text) throws IOException {
        Files.write(dir.resolve(name + ".zki"), data);
        Files.write(dir.resolve(name + ".ion"), text.render(data, name).getBytes(StandardCharsets.UTF_8));
    }
}
