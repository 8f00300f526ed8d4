package io.zkion.discovery.codec.ion;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.ion.IonSchema.F;

/**
 * The data of a node-joined event: the new node's record (its Ion, as encoded once at join) and its joining
 * discovery data, which every member hands to Ignite before the join notification.
 */
public final class JoinedEventData {
    public final byte[] record;
    public final byte[] joinData;

    public JoinedEventData(byte[] record, byte[] joinData) {
        this.record = record;
        this.joinData = joinData;
    }

    /** @return Raw Ion; it travels inside an event, which is enveloped and compressed already. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(record.length + joinData.length + 64);

        try {
            ReusableIonWriter.write(out, this::write);
        }
        catch (Exception e) {
            throw new CodecException("Failed to encode joined-event data", e);
        }

        return out.toByteArray();
    }

    private void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.RECORD);
        w.writeBlob(record);
        w.setFieldName(F.JOIN_DATA);
        w.writeBlob(joinData);
        w.stepOut();
    }

    public static JoinedEventData decode(byte[] ion, String what) {
        return IonEventFormat.read(ion, what, r -> read(r, what));
    }

    private static JoinedEventData read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        byte[] record = null;
        byte[] data = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            if (F.RECORD.equals(f))
                record = s.blob(f);
            else if (F.JOIN_DATA.equals(f))
                data = s.blob(f);
        }

        s.leave();

        IonStructReader.require(record != null, F.RECORD, what);
        IonStructReader.require(data != null, F.JOIN_DATA, what);

        return new JoinedEventData(record, data);
    }
}
