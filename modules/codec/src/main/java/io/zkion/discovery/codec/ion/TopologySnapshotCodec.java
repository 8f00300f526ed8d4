package io.zkion.discovery.codec.ion;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.ion.IonSchema.F;

/**
 * The topology a joining node receives: a small header, then every node's record. The records are
 * byte-copied from the Ion each node's record got when it joined, so a join costs a memory copy per node,
 * not a serialisation.
 */
public final class TopologySnapshotCodec {
    private final IonEventFormat format;
    private final CopyStats stats;

    public TopologySnapshotCodec(IonEventFormat format, CopyStats stats) {
        this.format = format;
        this.stats = stats;
    }

    /** @param records Each an output of {@link NodeRecord#encode()}. */
    public byte[] encode(long topVer, Collection<byte[]> records) {
        return format.wrap(w -> {
            w.stepIn(IonType.STRUCT);
            w.setFieldName(F.TOP_VER);
            w.writeInt(topVer);
            w.setFieldName(F.COUNT);
            w.writeInt(records.size());
            w.stepOut();

            for (byte[] rec : records) {
                // One reader per record: ion-java caches the symbol table check per writer table object.
                IonValueCopier copier = new IonValueCopier(rec, stats);

                if (copier.reader().next() != IonType.STRUCT)
                    throw new IllegalArgumentException("Not a node record: " + rec.length + " bytes");

                copier.copyCurrent(w);
            }
        });
    }

    /**
     * Decodes a snapshot; the records come in the order they were written. Each record is also kept as ion-java copies
     * it (see {@link Snapshot#records}), so that a field this release does not read stays in it.
     */
    public Snapshot decode(byte[] data, String what) {
        byte[] ion = format.inflate(data, what);

        return IonEventFormat.read(ion, what, r -> read(r, what));
    }

    private Snapshot read(IonReader r, String what) throws Exception {
        IonStructReader s = IonStructReader.enter(r, what + " header");
        long topVer = -1;
        long count = -1;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            if (F.TOP_VER.equals(f))
                topVer = s.longValue(f);
            else if (F.COUNT.equals(f))
                count = s.longValue(f);
        }

        s.leave();

        IonStructReader.require(topVer >= 0, F.TOP_VER, what);

        if (count < 0 || count > Integer.MAX_VALUE)
            throw new CorruptPayloadException(what + ": header field 'count' is missing or out of range: " + count);

        List<NodeRecord> nodes = new ArrayList<>((int)Math.min(count, 1024));
        List<byte[]> records = new ArrayList<>((int)Math.min(count, 1024));
        CountingTransferReader copier = new CountingTransferReader(r, stats);

        for (int i = 0; i < count; i++) {
            String rec = what + " node " + i;
            IonType t = r.next();

            if (t != IonType.STRUCT || r.isNullValue())
                throw new CorruptPayloadException(rec + ": expected a struct, found "
                    + (t == null ? "the end of data" : r.isNullValue() ? "null." + t.name().toLowerCase() : t));

            try {
                // Copied first: the reader cannot go back over a value it has read. A byte copy leaves it on the
                // record, unread; a re-encoding (symbols outside our table) steps through it, so the copy is read.
                byte[] copy = copy(copier);

                records.add(copy);
                nodes.add(copier.transferred() ? NodeRecord.readCurrent(r, rec) : NodeRecord.decode(copy, rec));
            }
            catch (CodecException e) {
                throw e;
            }
            catch (RuntimeException e) {
                // A record whose length runs past the data: ion-java's copy fails on the array, not with its own error.
                throw new CorruptPayloadException(rec + " is cut short or malformed: " + e, e);
            }
        }

        if (r.next() != null)
            throw new CorruptPayloadException(what + ": unexpected " + r.getType() + " after " + count + " nodes");

        return new Snapshot(topVer, nodes, records);
    }

    /**
     * @return The reader's current value as a stream of its own: a byte copy where the symbols allow. ion-java caches
     *     its check of the reader's symbols against the writer's per writer, so every record of one snapshot should go
     *     through the one writer of this thread; were this called inside another {@code ReusableIonWriter.write}, each
     *     copy would get a fresh writer and silently be re-encoded ({@code CopyStats} would show it).
     */
    private static byte[] copy(CountingTransferReader copier) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);

        ReusableIonWriter.write(out, w -> {
            copier.beforeWrite();
            w.writeValue(copier);
            copier.afterWrite();
        });

        return out.toByteArray();
    }

    /** A decoded snapshot. */
    public static final class Snapshot {
        public final long topVer;
        public final List<NodeRecord> nodes;

        /**
         * Each of {@link #nodes} as its own Ion stream, what a later snapshot copies: byte for byte where the record's
         * symbols are our table's, re-encoded by ion-java with its local symbols otherwise.
         */
        public final List<byte[]> records;

        Snapshot(long topVer, List<NodeRecord> nodes, List<byte[]> records) {
            this.topVer = topVer;
            this.nodes = nodes;
            this.records = records;
        }
    }
}
