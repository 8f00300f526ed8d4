package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

/** What the joiners of one batch share of Ignite's common data, and who gets an answer that leaves it out. */
public class SharedCommonTest {
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());
    private static final ObjectCodec OBJECTS = new ObjectCodec(JdkMarshallers.create(), StreamingZip.defaults().stored(),
        SharedCommonTest.class.getClassLoader());
    private static final ZkPaths PATHS = new ZkPaths("/r");

    @Test public void capableJoinersShareWhatIsAlikeAndKeepTheRest() {
        Admission older = join(false, Map.of(1, "z", 2, "same"));
        Admission a = join(true, Map.of(1, "x", 2, "same", 3, "also alike"));
        Admission b = join(true, Map.of(1, "y", 2, "same", 3, "also alike"));
        SharedCommon plan = SharedCommon.plan(List.of(older, a, b), OBJECTS, CODEC, PATHS);

        assertEquals("named for the entry's first join", PATHS.joinedShared(older.id), plan.path);
        assertEquals(Map.of(2, "same", 3, "also alike"), unmarshal(CODEC.decodeSharedCommon(plan.payload, "p").common));
        assertEquals(Map.of(1, "x"), unmarshal(plan.own(a.id)));
        assertEquals(Map.of(1, "y"), unmarshal(plan.own(b.id)));
        assertNull("a joiner that does not say it reads shared data gets it all", plan.own(older.id));
    }

    @Test public void aComponentOneJoinerLacksIsNotShared() {
        Admission a = join(true, Map.of(1, "x", 2, "same"));
        Admission b = join(true, Map.of(1, "x"));
        SharedCommon plan = SharedCommon.plan(List.of(a, b), OBJECTS, CODEC, PATHS);

        assertEquals(Map.of(1, "x"), unmarshal(CODEC.decodeSharedCommon(plan.payload, "p").common));
        assertEquals(Map.of(2, "same"), unmarshal(plan.own(a.id)));
        assertEquals(Map.of(), unmarshal(plan.own(b.id)));
    }

    @Test public void nothingIsSharedByOneCapableJoinerOrWhenNothingIsAlike() {
        assertNull(SharedCommon.plan(List.of(join(true, Map.of(1, "x")), join(false, Map.of(1, "x"))), OBJECTS, CODEC,
            PATHS));
        assertNull(SharedCommon.plan(List.of(join(true, Map.of(1, "x")), join(true, Map.of(1, "y"))), OBJECTS, CODEC,
            PATHS));
    }

    private static Map<Integer, Serializable> unmarshal(byte[] b) {
        return OBJECTS.unmarshal(b, "the test's common data");
    }

    private static Admission join(boolean capable, Map<Integer, Serializable> common) {
        UUID id = UUID.randomUUID();
        Map<String, Object> attrs = capable ? SharedCommon.withCapability(Collections.emptyMap()) : Collections.emptyMap();
        ZkIonClusterNode node = new ZkIonClusterNode(id, id, null, attrs, null, null, false);

        return new Admission(id, null, null, null, node, null, null, true, "ion-2", common, null, null);
    }
}
