package io.zkion.discovery.codec.msg;

import java.util.Arrays;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.ion.Events;
import io.zkion.discovery.codec.ion.JoinedEventData;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class ControlCodecTest {
    private final ControlCodec codec = new ControlCodec(StreamingZip.defaults());

    private final ClusterState state = new ClusterState(Events.CLUSTER, 1234, 7, 99, "ion-1", Events.node(2));

    @Test public void stateRoundTrips() {
        ClusterState s = codec.decodeState(codec.encode(state), "state");

        assertEquals(state.toString(), s.toString());
        assertEquals(1234, s.gridStartTime);
    }

    /**
     * A state and a gate after a log rollover carry its epoch; before the first, they hold the bytes they always did,
     * and a reader that does not know the epoch's fields skips them (they reuse names of the shared table).
     */
    @Test public void logEpochRoundTripsAndIsLeftOutInEpochZero() {
        ClusterState rolled = state.nextEpoch(1234L << 31 | 77).with(8, 100, "ion-2", Events.node(3));
        ClusterState s = codec.decodeState(codec.encode(rolled), "state");

        assertEquals(1, s.logEpoch);
        assertEquals(1234L << 31 | 77, s.epochFollows);
        assertEquals(8, s.topVer);
        assertEquals(0, codec.decodeState(codec.encode(state), "state").logEpoch);
        assertEquals(-1, codec.decodeState(codec.encode(state), "state").epochFollows);
        assertTrue("epoch 0 writes no epoch fields",
            codec.encode(state).length < codec.encode(state.nextEpoch(5)).length);

        GateState g = codec.decodeGate(codec.encode(new GateState(true, "ion-2", 3)), "gate");

        assertEquals(3, g.logEpoch);
        assertEquals(0, codec.decodeGate(codec.encode(new GateState(true, "ion-2")), "gate").logEpoch);
        assertEquals(codec.encode(new GateState(true, "ion-2")).length, codec.encode(new GateState(true, "ion-2", 0)).length);
    }

    @Test public void aliveRoundTrips() {
        AliveInfo a = codec.decodeAlive(codec.encode(new AliveInfo(true, Arrays.asList("ion-1", "jdk-zlib"), 42)), "a");

        assertTrue(a.client);
        assertEquals(Arrays.asList("ion-1", "jdk-zlib"), a.formats);
        assertEquals(42, a.ack);
    }

    @Test public void gateRoundTrips() {
        GateState closed = codec.decodeGate(codec.encode(new GateState(false, "jdk-zlib")), "gate");

        assertFalse(closed.open);
        assertEquals("jdk-zlib", closed.format);
        assertTrue(codec.decodeGate(codec.encode(new GateState(true, "ion-1")), "gate").open);

        try {
            codec.decodeGate(codec.encode(new AliveInfo(false, Arrays.asList("ion-1"), 1)), "/root/gate");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/gate"));
        }
    }

    @Test public void connectivityReportRoundTripsAndAnotherRecordIsRefusedByPath() {
        ConnectivityReport r = codec.decodeReport(codec.encode(new ConnectivityReport(Events.node(9), Events.node(1),
            Arrays.asList(Events.node(1), Events.node(2)), null)), "report");

        assertEquals(Events.node(9), r.round);
        assertEquals(Arrays.asList(Events.node(1), Events.node(2)), r.reached);
        assertEquals(null, r.error);
        assertEquals("timed out", codec.decodeReport(codec.encode(new ConnectivityReport(Events.node(9), Events.node(1),
            Arrays.asList(Events.node(1)), "timed out")), "report").error);

        try {
            codec.decodeReport(codec.encode(new GateState(true, "ion-2")), "/root/comm/r-x/y");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/comm/r-x/y"));
        }
    }

    @Test public void joinRequestRoundTrips() {
        JoinRequest j = codec.decodeJoinRequest(codec.encode(new JoinRequest(Events.node(3), false,
            Arrays.asList("ion-1"), new byte[] {1, 2}, new byte[] {3}, new byte[] {7})), "j");

        assertEquals(Events.node(3), j.nodeId);
        assertArrayEquals(new byte[] {1, 2}, j.node);
        assertArrayEquals(new byte[] {3}, j.joinData);
        assertArrayEquals(new byte[] {7}, j.credentials);
    }

    /** In ion-2 a request names the joiner's data znode: both the node and its data are left out, never one. */
    @Test public void joinRequestByReferenceRoundTrips() {
        JoinRequest j = codec.decodeJoinRequest(codec.encode(new JoinRequest(Events.node(3), true,
            Arrays.asList("ion-2", "ion-1"), null, null, null)), "j");

        assertTrue(j.byReference());
        assertEquals(null, j.joinData);
        assertTrue(j.client);

        NodeData d = codec.decodeNodeData(codec.encode(new NodeData(new byte[] {4, 5}, new byte[] {6})), "/root/nodes/x");

        assertArrayEquals(new byte[] {4, 5}, d.node);
        assertArrayEquals(new byte[] {6}, d.joinData);

        try {
            codec.decodeNodeData(codec.encode(state), "/root/nodes/x");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/nodes/x") && e.getMessage().contains("missing"));
        }
    }

    @Test public void halfAReferenceIsCorrupt() {
        byte[] onlyNode = new io.zkion.discovery.codec.ion.IonEventFormat(StreamingZip.defaults()).wrap(w -> {
            w.stepIn(com.amazon.ion.IonType.STRUCT);
            w.setFieldName("id");
            w.writeString(Events.node(3).toString());
            w.setFieldName("client");
            w.writeBool(false);
            w.setFieldName("formats");
            w.stepIn(com.amazon.ion.IonType.LIST);
            w.writeString("ion-2");
            w.stepOut();
            w.setFieldName("node");
            w.writeBlob(new byte[] {1});
            w.stepOut();
        });

        try {
            codec.decodeJoinRequest(onlyNode, "/root/join/y");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/join/y") && e.getMessage().contains("joinData"));
        }
    }

    @Test public void joinResultsRoundTrip() {
        JoinResult ok = codec.decodeJoinResult(codec.encode(JoinResult.accepted(5, state, new byte[] {9}, new byte[] {8})), "r");

        assertTrue(ok.ok());
        assertEquals(5, ok.joinEventId);
        assertEquals(state.toString(), ok.state.toString());
        assertArrayEquals(new byte[] {9}, ok.snapshot);
        assertNull("no recent messages unless given", ok.recentMessages);

        JoinResult withRecent = codec.decodeJoinResult(codec.encode(JoinResult.accepted(5, state, new byte[] {9},
            new byte[] {8}, new byte[] {1, 2, 3})), "r");

        assertArrayEquals(new byte[] {1, 2, 3}, withRecent.recentMessages);

        JoinResult no = codec.decodeJoinResult(codec.encode(JoinResult.rejected(JoinResult.Refusal.REFUSED,
            "Duplicate node id")), "r");

        assertFalse(no.ok());
        assertEquals("Duplicate node id", no.rejection);
        assertEquals(JoinResult.Refusal.REFUSED, no.refusal);
    }

    /** A joiner acts on the kind of a refusal, never on its wording; a kind it does not know is final. */
    @Test public void anAnswerThatSharesPartOfTheCommonDataNamesTheRest() {
        JoinResult whole = JoinResult.accepted(5, state, new byte[] {9}, new byte[] {8, 8}, new byte[] {1});
        JoinResult r = codec.decodeJoinResult(codec.encode(whole.sharing(new byte[] {8}, "/zk/joined/shared-x")), "r");

        assertArrayEquals("only its own part", new byte[] {8}, r.commonData);
        assertEquals("/zk/joined/shared-x", r.sharedCommon);
        assertArrayEquals(new byte[] {1}, r.recentMessages);
        assertNull("all of it, unless shared", codec.decodeJoinResult(codec.encode(whole), "r").sharedCommon);

        SharedCommonData d = codec.decodeSharedCommon(codec.encode(new SharedCommonData(new byte[] {3, 4})), "d");

        assertArrayEquals(new byte[] {3, 4}, d.common);

        try {
            codec.decodeSharedCommon(codec.encode(new NodeData(new byte[] {1}, new byte[] {2})), "/zk/joined/shared-y");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/zk/joined/shared-y")
                && e.getMessage().contains("'" + io.zkion.discovery.codec.ion.IonSchema.F.COMMON + "'"));
        }
    }

    @Test public void refusalKindsRoundTrip() {
        JoinResult unreadable = codec.decodeJoinResult(codec.encode(JoinResult.rejected(
            JoinResult.Refusal.UNREADABLE_REQUEST, "any wording")), "r");

        assertEquals(JoinResult.Refusal.UNREADABLE_REQUEST, unreadable.refusal);
        assertEquals("any wording", unreadable.rejection);
        assertEquals(JoinResult.Refusal.REFUSED, JoinResult.Refusal.ofWireName("a-kind-of-a-later-release"));
    }

    @Test public void joinedEventDataRoundTrips() {
        JoinedEventData d = JoinedEventData.decode(new JoinedEventData(new byte[] {1}, new byte[] {2, 3}).encode(), "d");

        assertArrayEquals(new byte[] {1}, d.record);
        assertArrayEquals(new byte[] {2, 3}, d.joinData);

        JoinedEventData byRef = JoinedEventData.decode(new JoinedEventData(new byte[] {1}, null).encode(), "d");

        assertArrayEquals(new byte[] {1}, byRef.record);
        assertEquals(null, byRef.joinData);
    }

    @Test public void wrongRecordIsNamed() {
        try {
            codec.decodeJoinRequest(codec.encode(state), "/root/join/x");
            fail();
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/join/x") && e.getMessage().contains("missing"));
        }
    }
}
