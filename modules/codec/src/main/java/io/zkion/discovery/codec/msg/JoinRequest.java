package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * What a joining node asks with: itself (marshalled), its joining discovery data and the formats it reads.
 * When the cluster writes {@code ion-2}, the node and its data are in the joiner's data znode instead (a
 * {@link NodeData}), where they stay for members and later joiners to read: they are written once.
 */
public final class JoinRequest {
    public final UUID nodeId;
    public final boolean client;
    public final List<String> formats;

    /** Null when in the joiner's data znode, as {@link #joinData}: both are there or both here. */
    public final byte[] node;
    public final byte[] joinData;

    /** The node's marshalled security credentials, for the coordinator's authenticator; null without security. */
    public final byte[] credentials;

    public JoinRequest(UUID nodeId, boolean client, List<String> formats, byte[] node, byte[] joinData,
        byte[] credentials) {
        this.nodeId = nodeId;
        this.client = client;
        this.formats = formats;
        this.node = node;
        this.joinData = joinData;
        this.credentials = credentials;
    }

    /** @return Whether the node and its joining data are in the joiner's data znode. */
    public boolean byReference() {
        return node == null;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.ID);
        w.writeString(nodeId.toString());
        w.setFieldName(F.CLIENT);
        w.writeBool(client);
        IonStructReader.writeStrings(w, F.FORMATS, formats);

        if (node != null) {
            w.setFieldName(F.NODE);
            w.writeBlob(node);
            w.setFieldName(F.JOIN_DATA);
            w.writeBlob(joinData);
        }

        if (credentials != null) {
            w.setFieldName(F.DATA);
            w.writeBlob(credentials);
        }

        w.stepOut();
    }

    static JoinRequest read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        UUID id = null;
        Boolean client = null;
        List<String> formats = null;
        byte[] node = null;
        byte[] data = null;
        byte[] creds = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.DATA: creds = s.blob(f); break;
                case F.ID: id = s.uuid(f); break;
                case F.CLIENT: client = s.boolValue(f); break;
                case F.FORMATS: formats = s.strings(f); break;
                case F.NODE: node = s.blob(f); break;
                case F.JOIN_DATA: data = s.blob(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(id != null, F.ID, what);
        IonStructReader.require(client != null, F.CLIENT, what);
        IonStructReader.require(formats != null, F.FORMATS, what);
        // Both or neither: neither means they are in the joiner's data znode.
        IonStructReader.require(node != null || data == null, F.NODE, what);
        IonStructReader.require(data != null || node == null, F.JOIN_DATA, what);

        return new JoinRequest(id, client, formats, node, data, creds);
    }
}
