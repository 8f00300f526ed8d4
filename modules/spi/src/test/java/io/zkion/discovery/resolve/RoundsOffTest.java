package io.zkion.discovery.resolve;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.ignite.cluster.ClusterNode;
import org.junit.Test;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * A round starts only when every node takes part: a node of 0.1.0 lacks the attribute that says so, and while one is
 * in the cluster no round starts (the call returns, the peer stays), where it would otherwise count as reaching nobody
 * and be removed by every round of a rolling upgrade.
 */
public class RoundsOffTest {
    @Test public void everyNodeOfThisReleaseLetsARoundStart() {
        assertNull(Rounds.off(List.of(node(true), node(true)), new NoCommunication()));
    }

    @Test public void aNodeOfAnOlderReleaseKeepsRoundsOffAndIsNamed() {
        ClusterNode old = node(false);
        String why = Rounds.off(List.of(node(true), old), new NoCommunication());

        assertNotNull(why);
        assertTrue(why, why.contains(old.id().toString()) && why.contains("without communication failure rounds"));
    }

    @Test public void noCommunicationToCheckWithKeepsRoundsOff() {
        String why = Rounds.off(List.of(node(true)), null);

        assertNotNull(why);
        assertTrue(why, why.contains("communication"));
    }

    private static ClusterNode node(boolean rounds) {
        Map<String, Object> attrs = rounds ? Rounds.withCapability(Collections.emptyMap()) : Collections.emptyMap();

        return new ZkIonClusterNode(UUID.randomUUID(), "c", null, attrs, List.of("127.0.0.1"), List.of(), false);
    }

    /** Present, which is all the check asks of it. */
    private static final class NoCommunication implements io.zkion.discovery.internal.Communication {
        @Override public org.apache.ignite.lang.IgniteFuture<java.util.BitSet> checkConnection(List<ClusterNode> nodes) {
            return null;
        }

        @Override public org.apache.ignite.configuration.CommunicationFailureResolver resolver() {
            return null;
        }

        @Override public Map<String, org.apache.ignite.configuration.CacheConfiguration<?, ?>> startedCaches() {
            return Collections.emptyMap();
        }

        @Override public List<List<ClusterNode>> cacheAffinity(String cache) {
            return Collections.emptyList();
        }

        @Override public List<List<ClusterNode>> cachePartitionOwners(String cache) {
            return Collections.emptyList();
        }
    }
}
