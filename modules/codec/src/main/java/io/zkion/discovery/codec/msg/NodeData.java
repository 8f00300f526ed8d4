package io.zkion.discovery.codec.msg;

import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * A node's data znode: the node as marshalled when it joined, and its joining discovery data. Written once by
 * the joiner when the cluster writes {@code ion-2}; the coordinator, the members applying the join and later
 * joiners all read it from there, so a join no longer copies it into the log and into every snapshot.
 */
public final class NodeData {
    public final byte[] node;
    public final byte[] joinData;

    /**
     * Inflated bytes a node-only read tries first: a 2.17 server's node is some 12 KB, and comes first in the record.
     */
    static final int FIRST_TRY_BYTES = 16 * 1024;

    public NodeData(byte[] node, byte[] joinData) {
        this.node = node;
        this.joinData = joinData;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.NODE);
        w.writeBlob(node);
        w.setFieldName(F.JOIN_DATA);
        w.writeBlob(joinData);
        w.stepOut();
    }

    /** @return The node field alone: reading stops there, the joining data after it left unread. */
    static byte[] readNode(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            if (F.NODE.equals(f))
                return s.blob(f);
        }

        IonStructReader.require(false, F.NODE, what);

        return null;
    }

    static NodeData read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        byte[] node = null;
        byte[] data = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            if (F.NODE.equals(f))
                node = s.blob(f);
            else if (F.JOIN_DATA.equals(f))
                data = s.blob(f);
        }

        s.leave();

        IonStructReader.require(node != null, F.NODE, what);
        IonStructReader.require(data != null, F.JOIN_DATA, what);

        return new NodeData(node, data);
    }
}
