package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.Ignite;
import org.apache.zookeeper.ZooDefs;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * The founding multi's reply is lost after ZooKeeper applied it, and Curator sends it again: the replay fails on what
 * the first try wrote (the state exists). The founder must find that its own multi landed; if it took the failure
 * for another node's founding, the state would name it coordinator and no node would take the role.
 */
public class FoundingReplayTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aFoundingCommitWhoseReplyWasLostStillFoundsTheCluster() throws Exception {
        String state = root + "/state";
        AtomicInteger lost = new AtomicInteger();
        ZkIonDiscoverySpi spi = spi().setJoinTimeout(20_000)
            .setZkFaultsForTest(ops -> creates(ops, state) && lost.getAndIncrement() == 0);

        Ignite s1 = start(config("s1", false).setDiscoverySpi(spi));
        Ignite s2 = start("s2");

        assertEquals("replies lost", 1, lost.get());
        assertEquals(1, s1.cluster().localNode().order());
        assertEquals(2, s1.cluster().nodes().size());
        assertEquals(2, s2.cluster().nodes().size());
    }

    static boolean creates(List<CuratorOp> ops, String path) {
        return ops.stream().anyMatch(o -> o.get().getType() == ZooDefs.OpCode.create && path.equals(o.get().getPath()));
    }
}
