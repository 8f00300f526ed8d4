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
 * <p>
 * In {@code ion-2} both the record's node bytes and the joining data may be left out: the joiner wrote them
 * to its data znode, and members read them there.
 */
public final class JoinedEventData {
    public final byte[] record;

    /** Null when it is in the node's data znode. */
    public final byte[] joinData;

    public JoinedEventData(byte[] record, byte[] joinData) {
        this.record = record;
        this.joinData = joinData;
    }

    /** @return Raw Ion; it travels inside an event, which is enveloped and compressed already. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(record.length + (joinData == null ? 0 : joinData.length) + 64);

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

        if (joinData != null) {
            w.setFieldName(F.JOIN_DATA);
            w.writeBlob(joinData);
        }

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

        return new JoinedEventData(record, data);
    }
}
