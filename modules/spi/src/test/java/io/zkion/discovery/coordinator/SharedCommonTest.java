package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.ignite.logger.NullLogger;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** What the joiners of one batch share of Ignite's common data, who gets an answer that leaves it out, and when. */
public class SharedCommonTest {
    private static final ControlCodec CODEC = new ControlCodec(StreamingZip.defaults());
    private static final ObjectCodec OBJECTS = new ObjectCodec(JdkMarshallers.create(), StreamingZip.defaults().stored(),
        SharedCommonTest.class.getClassLoader());
    private static final ZkPaths PATHS = new ZkPaths("/r");
    private static final List<ZkIonClusterNode> MEMBERS = List.of(node(true, false), node(true, false));

    @Test public void capableJoinersShareWhatIsAlikeAndKeepTheRest() {
        Admission client = join(false, true, Map.of(1, "z", 2, "same"));
        Admission a = join(true, false, Map.of(1, "x", 2, "same", 3, "also alike"));
        Admission b = join(true, false, Map.of(1, "y", 2, "same", 3, "also alike"));
        SharedCommon plan = plan(List.of(client, a, b), MEMBERS);

        assertTrue(plan.path, plan.path.startsWith(PATHS.joined + "/" + ZkPaths.SHARED_PREFIX));
        assertEquals(Map.of(2, "same", 3, "also alike"), unmarshal(CODEC.decodeSharedCommon(plan.payload, "p").common));
        assertEquals(Map.of(1, "x"), unmarshal(plan.own(a.id)));
        assertEquals(Map.of(1, "y"), unmarshal(plan.own(b.id)));
        assertNull("a joiner that does not say it reads shared data gets it all", plan.own(client.id));
    }

    @Test public void aComponentOneJoinerLacksIsNotShared() {
        Admission a = join(true, false, Map.of(1, "x", 2, "same"));
        Admission b = join(true, false, Map.of(1, "x"));
        SharedCommon plan = plan(List.of(a, b), MEMBERS);

        assertEquals(Map.of(1, "x"), unmarshal(CODEC.decodeSharedCommon(plan.payload, "p").common));
        assertEquals(Map.of(2, "same"), unmarshal(plan.own(a.id)));
        assertEquals(Map.of(), unmarshal(plan.own(b.id)));
    }

    @Test public void nothingIsSharedByOneCapableJoinerOrWhenNothingIsAlike() {
        assertNull(plan(List.of(join(true, false, Map.of(1, "x")), join(false, true, Map.of(1, "x"))), MEMBERS));
        assertNull(plan(List.of(join(true, false, Map.of(1, "x")), join(true, false, Map.of(1, "y"))), MEMBERS));
    }

    /** Any server may become coordinator, and an older one's sweep removes every name under joined/ not a node's. */
    @Test public void nothingIsSharedWhileAServerOfAnOlderReleaseIsInOrJoins() {
        List<Admission> two = List.of(join(true, false, Map.of(1, "x")), join(true, false, Map.of(1, "x")));

        assertNull(plan(two, List.of(node(true, false), node(false, false))));
        assertNull(plan(List.of(join(true, false, Map.of(1, "x")), join(true, false, Map.of(1, "x")),
            join(false, false, Map.of(1, "x"))), MEMBERS));
        assertTrue("an older client does not coordinate", plan(two, List.of(node(true, false), node(false, true))) != null);
    }

    /** A joiner of a batch that asks again may come first in a later batch while the first stands. */
    @Test public void eachBatchHasAZnodeOfItsOwn() {
        Admission a = join(true, false, Map.of(1, "x"));
        Admission b = join(true, false, Map.of(1, "x"));

        assertNotEquals(plan(List.of(a, b), MEMBERS).path, plan(List.of(a, b), MEMBERS).path);
    }

    @Test public void sharingMustSaveAKilobyteAndNotGrowTheMulti() {
        SharedCommon plan = plan(List.of(join(true, false, Map.of(1, "x")), join(true, false, Map.of(1, "x"))), MEMBERS);
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        int shared = plan.payload.length;

        assertTrue(plan.pays(answers(a, 5_000, b, 5_000), answers(a, 4_000, b, 4_000 - shared), 1 << 20));
        assertFalse("saves less than 1 KB", plan.pays(answers(a, 5_000, b, 5_000),
            answers(a, 4_600, b, 4_600 - shared), 1 << 20));
        // Whole, the answers went to parts (a manifest each in the multi); shared, they would be inline.
        assertFalse("carries more in the multi", plan.pays(answers(a, 300_000, b, 300_000),
            answers(a, 100_000, b, 100_000), 256 << 10));
    }

    /** Sharing only saves bytes: data that does not unmarshal here has the batch answered whole, the step going on. */
    @Test public void aBatchWhoseDataCannotBeSharedIsAnsweredWhole() {
        ZkIonClusterNode node = node(true, false);
        Admission unreadable = new Admission(node.id(), null, null, null, node, null, null, true, "ion-2",
            new byte[] {1, 2, 3}, null);
        List<Admission> batch = List.of(join(true, false, Map.of(1, "x")), unreadable);

        try {
            plan(batch, MEMBERS);
            fail("read common data that is not");
        }
        catch (RuntimeException expected) {
            // What planOrNone guards the coordinator's step against.
        }

        assertNull(SharedCommon.planOrNone(batch, MEMBERS, OBJECTS, CODEC, PATHS, new NullLogger()));
    }

    private static Map<UUID, byte[]> answers(UUID a, int aLen, UUID b, int bLen) {
        Map<UUID, byte[]> m = new HashMap<>();

        m.put(a, new byte[aLen]);
        m.put(b, new byte[bLen]);

        return m;
    }

    private static SharedCommon plan(List<Admission> batch, List<ZkIonClusterNode> members) {
        return SharedCommon.plan(batch, members, OBJECTS, CODEC, PATHS);
    }

    private static Map<Integer, Serializable> unmarshal(byte[] b) {
        return OBJECTS.unmarshal(b, "the test's common data");
    }

    private static ZkIonClusterNode node(boolean capable, boolean client) {
        UUID id = UUID.randomUUID();
        Map<String, Object> attrs = capable ? SharedCommon.withCapability(Collections.emptyMap()) : Collections.emptyMap();

        return new ZkIonClusterNode(id, id, null, attrs, null, null, client);
    }

    private static Admission join(boolean capable, boolean client, Map<Integer, Serializable> common) {
        ZkIonClusterNode node = node(capable, client);

        return new Admission(node.id(), null, null, null, node, null, null, true, "ion-2",
            OBJECTS.marshal(new HashMap<>(common)), null);
    }
}
