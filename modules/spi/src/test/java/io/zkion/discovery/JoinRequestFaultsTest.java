package io.zkion.discovery;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ignite.Ignite;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Faults between a joiner's request and the coordinator's answer: the join still completes. */
public class JoinRequestFaultsTest extends ZkIonTestSupport {
    /**
     * The joiner's session expires right after it wrote its request, before the coordinator answered: the server
     * drops the joiner's ephemeral znodes with the session, and Curator goes on in a new one. A joiner whose request
     * went with the old session waited for an answer that never came, here until {@code joinTimeout}.
     */
    @Test(timeout = 120_000) public void aJoinWhoseSessionExpiresBeforeTheAnswerStillJoins() throws Exception {
        Ignite s1 = start("s1");
        AtomicInteger expired = new AtomicInteger();
        ZkIonDiscoverySpi spi = spi().setJoinTimeout(30_000);

        spi.setAfterJoinRequestForTest(() -> {
            if (expired.getAndIncrement() > 0)
                return;

            try {
                spi.engine().expireSessionOnServerForTest();
            }
            catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        long start = System.currentTimeMillis();
        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi));

        assertEquals("sessions expired", 1, expired.get());
        assertTrue("joined within joinTimeout", System.currentTimeMillis() - start < 30_000);
        assertTwoThenThree(s1, s2);
    }

    /**
     * The reply to the joiner's request is lost after ZooKeeper applied it, and the request is sent again in the same
     * session: the replay fails on what the first try wrote, which is this node's own request.
     */
    @Test(timeout = 120_000) public void aJoinRequestWhoseReplyWasLostStillJoins() throws Exception {
        Ignite s1 = start("s1");
        AtomicInteger lost = new AtomicInteger();
        ZkIonDiscoverySpi spi = spi().setJoinTimeout(30_000);

        spi.setZkFaultsForTest(ops -> FoundingReplayTest.creates(ops, root + "/join/" + spi.getLocalNode().id())
            && lost.getAndIncrement() == 0);

        Ignite s2 = start(config("s2", false).setDiscoverySpi(spi));

        assertEquals("replies lost", 1, lost.get());
        assertTwoThenThree(s1, s2);
    }

    /** Two nodes see each other; a third joins as usual after them. */
    private void assertTwoThenThree(Ignite s1, Ignite s2) throws Exception {
        assertEquals(2, s1.cluster().nodes().size());
        assertEquals(2, s2.cluster().nodes().size());
        assertEquals(2, s2.cluster().localNode().order());

        Ignite s3 = start("s3");

        await("three nodes everywhere", 30_000, () -> s1.cluster().nodes().size() == 3
            && s2.cluster().nodes().size() == 3 && s3.cluster().nodes().size() == 3);
    }
}
