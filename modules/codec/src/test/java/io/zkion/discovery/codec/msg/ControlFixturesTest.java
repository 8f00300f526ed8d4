package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.event.JdkZlibEventFormat;
import io.zkion.discovery.codec.ion.Fixtures;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

/**
 * Every build reads the control records and {@code jdk-zlib} entries of release 0.1.0 to the same values: a record
 * an older node wrote is never misread by a newer one during a rolling upgrade.
 */
public class ControlFixturesTest {
    private final ControlCodec codec = new ControlCodec(StreamingZip.defaults());

    @Test public void everyControlRecordKindDecodesToTheSameValues() throws IOException {
        for (Map.Entry<String, Object> e : ControlFixtures.records().entrySet()) {
            byte[] data = read(ControlFixtures.DIR + e.getKey() + ".zkc");

            assertEquals(e.getKey(), describe(e.getValue()), describe(decode(codec, e.getValue(), data, e.getKey())));
        }
    }

    @Test public void jdkZlibEntriesDecodeToTheSameEvents() throws IOException {
        JdkZlibEventFormat jdk = new JdkZlibEventFormat(JdkMarshallers.create(), StreamingZip.defaults());

        for (Map.Entry<String, EventBatch> e : Fixtures.batches().entrySet()) {
            assertEquals(e.getKey(), e.getValue(),
                jdk.decode(read(ControlFixtures.JDK_DIR + e.getKey() + ".zkj"), e.getKey()));
        }
    }

    /** @return {@code data} decoded as the kind of record {@code like} is. */
    static Object decode(ControlCodec codec, Object like, byte[] data, String what) {
        if (like instanceof ClusterState)
            return codec.decodeState(data, what);
        if (like instanceof GateState)
            return codec.decodeGate(data, what);
        if (like instanceof AliveInfo)
            return codec.decodeAlive(data, what);
        if (like instanceof JoinRequest)
            return codec.decodeJoinRequest(data, what);
        if (like instanceof JoinResult)
            return codec.decodeJoinResult(data, what);
        if (like instanceof ConnectivityReport)
            return codec.decodeReport(data, what);
        if (like instanceof SharedCommonData)
            return codec.decodeSharedCommon(data, what);

        return codec.decodeNodeData(data, what);
    }

    /** @return Every field of a control record, for comparison: the records have no equals of their own. */
    static String describe(Object rec) {
        if (rec instanceof ClusterState) {
            ClusterState s = (ClusterState)rec;

            return s + " start=" + s.gridStartTime + " follows=" + s.epochFollows;
        }

        if (rec instanceof GateState)
            return rec.toString();

        if (rec instanceof AliveInfo) {
            AliveInfo a = (AliveInfo)rec;

            return "alive client=" + a.client + " formats=" + a.formats + " ack=" + a.ack + " host=" + a.host
                + " consistentId=" + a.consistentId + " order=" + a.order + " release=" + a.release;
        }

        if (rec instanceof JoinRequest) {
            JoinRequest j = (JoinRequest)rec;

            return "request " + j.nodeId + " client=" + j.client + " formats=" + j.formats + " node="
                + Arrays.toString(j.node) + " data=" + Arrays.toString(j.joinData) + " creds="
                + Arrays.toString(j.credentials);
        }

        if (rec instanceof JoinResult) {
            JoinResult r = (JoinResult)rec;

            return "answer refusal=" + r.refusal + " rejection=" + r.rejection + " event=" + r.joinEventId
                + " state=" + (r.state == null ? null : describe(r.state)) + " snapshot=" + Arrays.toString(r.snapshot)
                + " common=" + Arrays.toString(r.commonData) + " recent=" + Arrays.toString(r.recentMessages)
                + " sharedCommon=" + r.sharedCommon;
        }

        if (rec instanceof ConnectivityReport)
            return rec.toString();

        if (rec instanceof SharedCommonData)
            return "shared common data " + Arrays.toString(((SharedCommonData)rec).common);

        NodeData d = (NodeData)rec;

        return "node data " + Arrays.toString(d.node) + " " + Arrays.toString(d.joinData);
    }

    private static byte[] read(String name) throws IOException {
        try (InputStream in = ControlFixturesTest.class.getClassLoader().getResourceAsStream(name)) {
            assertNotNull("Missing fixture " + name, in);

            return in.readAllBytes();
        }
    }
}
