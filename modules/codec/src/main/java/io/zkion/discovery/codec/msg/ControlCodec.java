package io.zkion.discovery.codec.msg;

import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.zip.StreamingZip;

/**
 * Encodes and decodes the SPI's control records (cluster state, log gate, alive info, join request and result,
 * joined-event data, connectivity reports). They use the Ion envelope of the event format, so every znode the SPI writes
 * starts with a format id and reads back as Ion text in a dump.
 */
public final class ControlCodec {
    private final IonEventFormat ion;

    public ControlCodec(StreamingZip zip) {
        this.ion = new IonEventFormat(zip);
    }

    public IonEventFormat ion() {
        return ion;
    }

    public byte[] encode(ClusterState s) {
        return ion.wrap(s::write);
    }

    public ClusterState decodeState(byte[] data, String what) {
        return ion.unwrap(data, what, r -> ClusterState.read(r, what));
    }

    public byte[] encode(AliveInfo a) {
        return ion.wrap(a::write);
    }

    public AliveInfo decodeAlive(byte[] data, String what) {
        return ion.unwrap(data, what, r -> AliveInfo.read(r, what));
    }

    public byte[] encode(GateState g) {
        return ion.wrap(g::write);
    }

    public GateState decodeGate(byte[] data, String what) {
        return ion.unwrap(data, what, r -> GateState.read(r, what));
    }

    public byte[] encode(JoinRequest j) {
        return ion.wrap(j::write);
    }

    public JoinRequest decodeJoinRequest(byte[] data, String what) {
        return ion.unwrap(data, what, r -> JoinRequest.read(r, what));
    }

    public byte[] encode(JoinResult j) {
        return ion.wrap(j::write);
    }

    public JoinResult decodeJoinResult(byte[] data, String what) {
        return ion.unwrap(data, what, r -> JoinResult.read(r, what));
    }

    public byte[] encode(NodeData d) {
        return ion.wrap(d::write);
    }

    public NodeData decodeNodeData(byte[] data, String what) {
        return ion.unwrap(data, what, r -> NodeData.read(r, what));
    }

    /**
     * @return The node of a data znode, its joining data not inflated: what a joiner keeps of each member. The node is
     *      a zlib stream of its own, whose checksum its unmarshalling checks; the rest of the payload is not checked.
     */
    public byte[] decodeNodeOnly(byte[] data, String what) {
        return ion.unwrapStart(data, what, NodeData.FIRST_TRY_BYTES, r -> NodeData.readNode(r, what));
    }

    public byte[] encode(SharedCommonData d) {
        return ion.wrap(d::write);
    }

    public SharedCommonData decodeSharedCommon(byte[] data, String what) {
        return ion.unwrap(data, what, r -> SharedCommonData.read(r, what));
    }

    public byte[] encode(ConnectivityReport r) {
        return ion.wrap(r::write);
    }

    public ConnectivityReport decodeReport(byte[] data, String what) {
        return ion.unwrap(data, what, r -> ConnectivityReport.read(r, what));
    }
}
