package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventKind;
import io.zkion.discovery.codec.ion.IonSchema.F;

/**
 * Events as plain Ion values. A batch is a header struct followed by one top-level struct per event;
 * keeping events at top level (not in a list) is what allows them to be stream-copied one by one.
 */
public final class IonEventCodec {
    private IonEventCodec() {
    }

    public static void writeHeader(IonWriter w, UUID clusterId, long topVer, long counter, long first, int count)
        throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.CLUSTER);
        w.writeString(clusterId.toString());
        w.setFieldName(F.TOP_VER);
        w.writeInt(topVer);
        w.setFieldName(F.COUNTER);
        w.writeInt(counter);
        w.setFieldName(F.FIRST);
        w.writeInt(first);
        w.setFieldName(F.COUNT);
        w.writeInt(count);
        w.stepOut();
    }

    public static void writeEvent(IonWriter w, DiscoveryEvent e) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.KIND);
        w.writeSymbol(e.kind().symbol());
        w.setFieldName(F.ID);
        w.writeInt(e.eventId());
        w.setFieldName(F.TOP_VER);
        w.writeInt(e.topVer());
        w.setFieldName(F.NODE);
        w.writeString(e.nodeId().toString());

        if (e.data().length > 0) {
            w.setFieldName(F.DATA);
            w.writeBlob(e.data());
        }

        w.stepOut();
    }

    public static void writeBatch(IonWriter w, EventBatch b) throws IOException {
        writeHeader(w, b.clusterId(), b.topVer(), b.eventIdCounter(), b.firstEventId(), b.events().size());

        for (DiscoveryEvent e : b.events())
            writeEvent(w, e);
    }

    /** The header of a batch: what a reader needs before it decides which events to decode or copy. */
    public static final class Header {
        public final UUID clusterId;
        public final long topVer;
        public final long counter;
        public final long first;
        public final int count;

        Header(UUID clusterId, long topVer, long counter, long first, int count) {
            this.clusterId = clusterId;
            this.topVer = topVer;
            this.counter = counter;
            this.first = first;
            this.count = count;
        }
    }

    public static Header readHeader(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what, "header", -1);
        UUID cluster = null;
        long topVer = 0;
        long counter = 0;
        long first = 0;
        long count = -1;
        boolean seenTopVer = false;
        boolean seenCounter = false;
        boolean seenFirst = false;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.CLUSTER: cluster = s.uuid(f); break;
                case F.TOP_VER: topVer = s.longValue(f); seenTopVer = true; break;
                case F.COUNTER: counter = s.longValue(f); seenCounter = true; break;
                case F.FIRST: first = s.longValue(f); seenFirst = true; break;
                case F.COUNT: count = s.longValue(f); break;
                default: // A field a later revision added.
            }
        }

        s.leave();

        IonStructReader.require(cluster != null, F.CLUSTER, what);
        IonStructReader.require(seenTopVer, F.TOP_VER, what);
        IonStructReader.require(seenCounter, F.COUNTER, what);
        IonStructReader.require(seenFirst, F.FIRST, what);

        if (count < 0 || count > Integer.MAX_VALUE)
            throw new CorruptPayloadException(what + ": header field 'count' is missing or out of range: " + count);

        return new Header(cluster, topVer, counter, first, (int)count);
    }

    public static DiscoveryEvent readEvent(IonReader r, String what) {
        return readEvent(IonStructReader.enter(r, what));
    }

    /** Reads the {@code i}-th event of {@code what}. */
    static DiscoveryEvent readEvent(IonReader r, String what, int i) {
        return readEvent(IonStructReader.enter(r, what, "event", i));
    }

    private static DiscoveryEvent readEvent(IonStructReader s) {
        EventKind kind = null;
        long id = 0;
        long topVer = 0;
        UUID node = null;
        byte[] data = null;
        boolean seenId = false;
        boolean seenTopVer = false;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.KIND:
                    String sym = s.symbol(f);

                    kind = EventKind.ofSymbol(sym);

                    if (kind == null)
                        throw new CorruptPayloadException(s.what() + ": unknown event kind '" + sym + "'");

                    break;

                case F.ID: id = s.longValue(f); seenId = true; break;
                case F.TOP_VER: topVer = s.longValue(f); seenTopVer = true; break;
                case F.NODE: node = s.uuid(f); break;
                case F.DATA: data = s.blob(f); break;
                default: // A field a later revision added.
            }
        }

        s.leave();

        s.require(kind != null, F.KIND);
        s.require(seenId, F.ID);
        s.require(seenTopVer, F.TOP_VER);
        s.require(node != null, F.NODE);

        return new DiscoveryEvent(kind, id, topVer, node, data);
    }

    /** Reads a whole batch and checks that the events are the ones the header announced. */
    public static EventBatch readBatch(IonReader r, String what) {
        Header h = readHeader(r, what);
        List<DiscoveryEvent> events = new ArrayList<>(Math.min(h.count, 1024));

        for (int i = 0; i < h.count; i++) {
            DiscoveryEvent e = readEvent(r, what, i);

            if (e.eventId() != h.first + i) {
                throw new CorruptPayloadException(what + ": event " + i + " has id " + e.eventId() + ", expected "
                    + (h.first + i));
            }

            events.add(e);
        }

        if (r.next() != null)
            throw new CorruptPayloadException(what + ": unexpected " + r.getType() + " after " + h.count + " events");

        try {
            return new EventBatch(h.clusterId, h.topVer, h.counter, events);
        }
        catch (IllegalArgumentException e) {
            throw new CorruptPayloadException(what + ": " + e.getMessage());
        }
    }
}
