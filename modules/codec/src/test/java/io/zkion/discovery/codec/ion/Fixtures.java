package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.zip.StreamingZip;

/**
 * The golden fixtures of Ion format version 1 and the values they must decode to. {@link #main} wrote the
 * files once; they are never regenerated, so that a change which stops reading them fails
 * {@link GoldenFixturesTest}.
 */
public final class Fixtures {
    static final String DIR = "fixtures/ion-1/";

    private Fixtures() {
    }

    /** Fixture name to the batch it holds. */
    public static Map<String, EventBatch> batches() {
        Map<String, EventBatch> m = new LinkedHashMap<>();

        m.put("batch-every-kind", Events.batch(1000, 10, 40));
        m.put("batch-single-custom", new EventBatch(Events.CLUSTER, 4, 18,
            Events.sample(17, 2, 333, 3).subList(1, 2)));
        m.put("batch-empty", new EventBatch(Events.CLUSTER, 9, 55, new ArrayList<>()));

        return m;
    }

    static List<NodeRecord> nodes() {
        List<NodeRecord> nodes = new ArrayList<>();

        for (int i = 0; i < 4; i++)
            nodes.add(new NodeRecord(Events.node(i), i + 1, i == 3, new byte[] {1, 2, 3, (byte)i}));

        return nodes;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "modules/codec/src/test/resources/" + DIR);
        IonEventFormat ion = new IonEventFormat(StreamingZip.defaults());
        IonText text = new IonText(ion);

        Files.createDirectories(dir);

        for (Map.Entry<String, EventBatch> e : batches().entrySet())
            write(dir, e.getKey(), ion.encode(e.getValue()), text);

        List<byte[]> records = new ArrayList<>();

        for (NodeRecord n : nodes())
            records.add(n.encode());

        write(dir, "snapshot-4-nodes", new TopologySnapshotCodec(ion, new CopyStats()).encode(4, records), text);
    }

    private static void write(Path dir, String name, byte[] data, IonText text) throws IOException {
        Files.write(dir.resolve(name + ".zki"), data);
        Files.write(dir.resolve(name + ".ion"), text.render(data, name).getBytes(StandardCharsets.UTF_8));
    }
}
