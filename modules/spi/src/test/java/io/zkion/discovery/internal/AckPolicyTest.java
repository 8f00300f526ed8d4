package io.zkion.discovery.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.ignite.lang.IgniteProductVersion;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Members ack lazily only under a coordinator that advertises it: one of an older release expects acks within a
 * second and would read every lagging ack directly meanwhile. The coordinator is the oldest server; clients ahead
 * of it in the order do not count.
 */
public class AckPolicyTest {
    @Test public void membersAckLazilyOnlyUnderACoordinatorThatAdvertisesIt() {
        ZkIonClusterNode older = node(false, false);
        ZkIonClusterNode newer = node(false, true);
        ZkIonClusterNode client = node(true, false);

        assertFalse("an older coordinator", AckPolicy.lazy(topology(older, newer)));
        assertTrue("a coordinator of this release", AckPolicy.lazy(topology(newer, older)));
        assertTrue("a client ahead of the coordinator", AckPolicy.lazy(topology(client, newer, older)));
        assertFalse("no server", AckPolicy.lazy(topology(client)));
    }

    @Test public void aMemberMayBeBehindByAsManyEntriesAsTheClusterHasMembers() {
        assertEquals(128, AckPolicy.entriesBehind(3));
        assertEquals(1_000, AckPolicy.entriesBehind(1_000));
    }

    private static Topology topology(ZkIonClusterNode... nodes) {
        return Topology.of(nodes.length, Arrays.asList(nodes), Collections.emptyMap());
    }

    private static ZkIonClusterNode node(boolean client, boolean advertises) {
        Map<String, Object> attrs = new HashMap<>();

        if (advertises)
            attrs = AckPolicy.withCapability(attrs);

        return new ZkIonClusterNode(UUID.randomUUID(), UUID.randomUUID().toString(),
            IgniteProductVersion.fromString("2.17.0"), attrs, Collections.singleton("127.0.0.1"),
            Collections.singleton("localhost"), client);
    }
}
