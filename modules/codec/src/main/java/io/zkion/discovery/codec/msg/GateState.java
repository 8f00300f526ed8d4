package io.zkion.discovery.codec.msg;

import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * The data of the log gate: whether members may append to the log now, and the format they write in. The
 * format is here, not only in the state, because an append is checked against the gate's version: a member
 * that passes the check wrote in the format the coordinator had published at that moment.
 */
public final class GateState {
    public final boolean open;
    public final String format;

    public GateState(boolean open, String format) {
        this.open = open;
        this.format = format;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.OK);
        w.writeBool(open);
        w.setFieldName(F.FORMAT);
        w.writeString(format);
        w.stepOut();
    }

    static GateState read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        Boolean open = null;
        String format = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.OK: open = s.boolValue(f); break;
                case F.FORMAT: format = s.string(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(open != null, F.OK, what);
        IonStructReader.require(format != null, F.FORMAT, what);

        return new GateState(open, format);
    }

    @Override public String toString() {
        return (open ? "open" : "closed") + ", format " + format;
    }
}
