package io.zkion.discovery;

import java.util.List;
import org.apache.ignite.Ignite;
import org.apache.ignite.plugin.segmentation.SegmentationPolicy;
import org.junit.Test;

import static org.junit.Assert.assertTrue;

/**
 * A node that segments itself (it cannot follow the log) while its JVM and ZooKeeper session live on, as with a
 * segmentation policy of NOOP: the others must see it fail, or its last ack would hold the log's trimming for ever.
 */
public class SegmentedNodeTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aNodeSegmentedWithItsSessionAliveIsFailedByTheOthers() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setSegmentationPolicy(SegmentationPolicy.NOOP).setDiscoverySpi(spi()));
        Ignite s3 = start("s3");
        List<String> seen = record(s1);

        spiOf(s2).engine().segmentForTest();

        await("s2 failed on s1 and s3", SESSION_TIMEOUT + 10_000,
            () -> s1.cluster().nodes().size() == 2 && s3.cluster().nodes().size() == 2);

        assertTrue(seen.toString(), seen.contains("NODE_FAILED order=2 topVer=4"));

        // Nothing is left unacked by s2: the log is trimmed as messages go on.
        for (int i = 0; i < 10; i++)
            ((org.apache.ignite.internal.IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));

        await("the log trimmed", 30_000, () -> spiOf(s1).engine().pendingEntries() <= 2);
    }
}
