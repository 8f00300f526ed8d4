package io.zkion.discovery.codec.ion;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.ion.IonSchema.F;

/**
 * What the cluster keeps about one node: id, order, whether it is a client, and the node itself as opaque
 * marshalled bytes. Encoded to Ion once, when the node joins; snapshots copy those bytes.
 * <p>
 * In {@code ion-2} the bytes may be left out: the node wrote them to its own data znode when it joined, and
 * a reader fetches them from there. That keeps a snapshot's size flat in the cluster's size.
 */
public final class NodeRecord {
    private final UUID id;
    private final long order;
    private final boolean client;
    private final byte[] data;

    public NodeRecord(UUID id, long order, boolean client, byte[] data) {
        this.id = Objects.requireNonNull(id, "id");
        this.order = order;
        this.client = client;
        this.data = data;
    }

    /** @return A record whose node bytes are in the node's data znode. */
    public static NodeRecord byReference(UUID id, long order, boolean client) {
        return new NodeRecord(id, order, client, null);
    }

    public UUID id() {
        return id;
    }

    public long order() {
        return order;
    }

    public boolean client() {
        return client;
    }

    /** @return The marshalled node, not copied; null when it is in the node's data znode. */
    public byte[] data() {
        return data;
    }

    /** @return Whether the node's bytes are in its data znode rather than here. */
    public boolean byReference() {
        return data == null;
    }

    /** @return This record as a standalone Ion stream of one struct. */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream((data == null ? 0 : data.length) + 96);

        try {
            ReusableIonWriter.write(out, this::write);
        }
        catch (Exception e) {
            throw new CodecException("Failed to encode the record of node " + id, e);
        }

        return out.toByteArray();
    }

    void write(IonWriter w) throws java.io.IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.ID);
        w.writeString(id.toString());
        w.setFieldName(F.ORDER);
        w.writeInt(order);
        w.setFieldName(F.CLIENT);
        w.writeBool(client);

        if (data != null) {
            w.setFieldName(F.DATA);
            w.writeBlob(data);
        }

        w.stepOut();
    }

    /** Decodes what {@link #encode()} wrote. */
    public static NodeRecord decode(byte[] ion, String what) {
        return IonEventFormat.read(ion, what, r -> read(r, what));
    }

    static NodeRecord read(com.amazon.ion.IonReader r, String what) {
        return readFields(IonStructReader.enter(r, what), what);
    }

    /** Reads the record the reader is on, a struct at the top level. */
    static NodeRecord readCurrent(com.amazon.ion.IonReader r, String what) {
        return readFields(IonStructReader.enterCurrent(r, what), what);
    }

    private static NodeRecord readFields(IonStructReader s, String what) {
        UUID id = null;
        long order = -1;
        Boolean client = null;
        byte[] data = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.ID: id = s.uuid(f); break;
                case F.ORDER: order = s.longValue(f); break;
                case F.CLIENT: client = s.boolValue(f); break;
                case F.DATA: data = s.blob(f); break;
                default: // A field a later revision added.
            }
        }

        s.leave();

        IonStructReader.require(id != null, F.ID, what);
        IonStructReader.require(order >= 0, F.ORDER, what);
        IonStructReader.require(client != null, F.CLIENT, what);

        return new NodeRecord(id, order, client, data);
    }

    @Override public boolean equals(Object o) {
        if (this == o)
            return true;

        if (!(o instanceof NodeRecord))
            return false;

        NodeRecord n = (NodeRecord)o;

        return order == n.order && client == n.client && id.equals(n.id) && Arrays.equals(data, n.data);
    }

    @Override public int hashCode() {
        return Objects.hash(id, order, client) * 31 + Arrays.hashCode(data);
    }

    @Override public String toString() {
        return "NodeRecord[" + id + ", order=" + order + (client ? ", client" : "")
            + (data == null ? ", in its data znode]" : ", " + data.length + "B]");
    }
}
