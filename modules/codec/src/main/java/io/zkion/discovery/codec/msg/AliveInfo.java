package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.util.List;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * The data of a node's alive znode: what it reads, and the last event id it processed (its ack); and, since release
 * 0.2.0, who it is for an operator: its host, consistent id, order and release. Those are optional fields added last,
 * which 0.1.0 skips (NewerRecordsTest reads the fixture {@code alive-node} with it), so no new record version is needed.
 */
public final class AliveInfo {
    /** Field names of the fields added in 0.2.0: local symbols, the shared table is left as it is. */
    static final String HOST = "host";
    static final String CONSISTENT_ID = "consistentId";
    static final String RELEASE = "release";

    public final boolean client;
    public final List<String> formats;
    public final long ack;

    /** Null when unknown: written by a release before 0.2.0, or not known to the writer. */
    public final String host;
    public final String consistentId;
    public final String release;

    /** The node's order, 0 until the coordinator gives it one. */
    public final long order;

    public AliveInfo(boolean client, List<String> formats, long ack) {
        this(client, formats, ack, null, null, 0, null);
    }

    public AliveInfo(boolean client, List<String> formats, long ack, String host, String consistentId, long order,
        String release) {
        this.client = client;
        this.formats = formats;
        this.ack = ack;
        this.host = host;
        this.consistentId = consistentId;
        this.order = order;
        this.release = release;
    }

    public AliveInfo withAck(long ack) {
        return new AliveInfo(client, formats, ack, host, consistentId, order, release);
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.CLIENT);
        w.writeBool(client);
        IonStructReader.writeStrings(w, F.FORMATS, formats);
        w.setFieldName(F.ACK);
        w.writeInt(ack);
        writeIfSet(w, HOST, host);
        writeIfSet(w, CONSISTENT_ID, consistentId);

        if (order > 0) {
            w.setFieldName(F.ORDER);
            w.writeInt(order);
        }

        writeIfSet(w, RELEASE, release);
        w.stepOut();
    }

    private static void writeIfSet(IonWriter w, String field, String value) throws IOException {
        if (value != null) {
            w.setFieldName(field);
            w.writeString(value);
        }
    }

    static AliveInfo read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        Boolean client = null;
        List<String> formats = null;
        long ack = -1;
        String host = null;
        String consistentId = null;
        String release = null;
        long order = 0;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.CLIENT: client = s.boolValue(f); break;
                case F.FORMATS: formats = s.strings(f); break;
                case F.ACK: ack = s.longValue(f); break;
                case HOST: host = s.string(f); break;
                case CONSISTENT_ID: consistentId = s.string(f); break;
                case F.ORDER: order = s.longValue(f); break;
                case RELEASE: release = s.string(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(client != null, F.CLIENT, what);
        IonStructReader.require(formats != null, F.FORMATS, what);
        IonStructReader.require(ack >= 0, F.ACK, what);

        return new AliveInfo(client, formats, ack, host, consistentId, order, release);
    }
}
