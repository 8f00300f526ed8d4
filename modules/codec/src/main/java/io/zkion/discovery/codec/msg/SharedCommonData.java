package io.zkion.discovery.codec.msg;

import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * The part of Ignite's common discovery data that every joiner of one batch gets alike, written once for the batch
 * beside the joiners' answers; each answer that names it carries only the rest ({@link JoinResult#sharedCommon}).
 * Opaque here: the SPI's marshalled map of components.
 */
public final class SharedCommonData {
    public final byte[] common;

    public SharedCommonData(byte[] common) {
        this.common = common;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.COMMON);
        w.writeBlob(common);
        w.stepOut();
    }

    static SharedCommonData read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        byte[] common = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            if (F.COMMON.equals(f))
                common = s.blob(f);
        }

        s.leave();
        s.require(common != null, F.COMMON);

        return new SharedCommonData(common);
    }
}
