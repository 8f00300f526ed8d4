package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.util.List;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/** The data of a node's alive znode: what it reads, and the last event id it processed (its ack). */
public final class AliveInfo {
    public final boolean client;
    public final List<String> formats;
    public final long ack;

    public AliveInfo(boolean client, List<String> formats, long ack) {
        this.client = client;
        this.formats = formats;
        this.ack = ack;
    }

    public AliveInfo withAck(long ack) {
        return new AliveInfo(client, formats, ack);
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.CLIENT);
        w.writeBool(client);
        IonStructReader.writeStrings(w, F.FORMATS, formats);
        w.setFieldName(F.ACK);
        w.writeInt(ack);
        w.stepOut();
    }

    static AliveInfo read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        Boolean client = null;
        List<String> formats = null;
        long ack = -1;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.CLIENT: client = s.boolValue(f); break;
                case F.FORMATS: formats = s.strings(f); break;
                case F.ACK: ack = s.longValue(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(client != null, F.CLIENT, what);
        IonStructReader.require(formats != null, F.FORMATS, what);
        IonStructReader.require(ack >= 0, F.ACK, what);

        return new AliveInfo(client, formats, ack);
    }
}
