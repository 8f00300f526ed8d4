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

    /** The log epoch members' entries belong to (see {@link ClusterState#logEpoch}): their names carry it. */
    public final long logEpoch;

    /** A name of the shared table a gate does not use otherwise; written only from epoch 1 on, as the state's. */
    private static final String LOG_EPOCH = F.COUNT;

    public GateState(boolean open, String format) {
        this(open, format, 0);
    }

    public GateState(boolean open, String format, long logEpoch) {
        this.open = open;
        this.format = format;
        this.logEpoch = logEpoch;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.OK);
        w.writeBool(open);
        w.setFieldName(F.FORMAT);
        w.writeString(format);

        if (logEpoch > 0) {
            w.setFieldName(LOG_EPOCH);
            w.writeInt(logEpoch);
        }

        w.stepOut();
    }

    static GateState read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        Boolean open = null;
        String format = null;
        long epoch = 0;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.OK: open = s.boolValue(f); break;
                case F.FORMAT: format = s.string(f); break;
                case LOG_EPOCH: epoch = s.longValue(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(open != null, F.OK, what);
        IonStructReader.require(format != null, F.FORMAT, what);
        IonStructReader.require(epoch >= 0, LOG_EPOCH, what);

        return new GateState(open, format, epoch);
    }

    @Override public String toString() {
        return (open ? "open" : "closed") + ", format " + format + (logEpoch > 0 ? ", log epoch " + logEpoch : "");
    }
}
