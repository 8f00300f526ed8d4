package io.zkion.discovery;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteState;
import org.apache.ignite.Ignition;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * Forcing a server out, as the stock SPI can and as an operator must for a hung server that keeps its ZooKeeper
 * session: through Ignite's {@code failNode}, the MXBean's {@code excludeNode} and {@code zkion-cli evict}. Each is
 * NODE_FAILED at one topology version on every node that stays, the evicted server stops itself, and the cluster goes
 * on: the coordinator itself can be evicted, and a new node joins afterwards.
 */
public class EvictTest extends ZkIonTestSupport {
    @Test(timeout = 240_000) public void anyServerCanBeForcedOut() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite s3 = start("s3");
        Ignite s4 = start("s4");
        Ignite c1 = startClient("c1");
        List<String> on4 = record(s4);
        List<String> onC = record(c1);

        // Ignite's failNode, from a node that does not coordinate, on another server.
        UUID id3 = s3.cluster().localNode().id();

        spiOf(s2).failNode(id3, "test");
        awaitOut(s3, id3, s1, s2, s4, c1);

        // The MXBean's excludeNode, on a server.
        UUID id2 = s2.cluster().localNode().id();
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> beans = jmx.queryNames(new ObjectName("org.apache:igniteInstanceName=s4,group=SPIs,*"), null);
        ObjectName bean = beans.stream().filter(n -> n.toString().contains("ZkIonDiscoverySpi")).findFirst()
            .orElseThrow(() -> new AssertionError("no bean among " + beans));

        jmx.invoke(bean, "excludeNode", new Object[] {id2.toString()}, new String[] {String.class.getName()});
        awaitOut(s2, id2, s1, s4, c1);

        // zkion-cli evict, on the coordinator.
        UUID id1 = s1.cluster().localNode().id();

        assertEquals(id1, s4.cluster().forOldest().node().id());
        assertEquals(0, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"evict", "--zk", zk.getConnectString(),
            "--root", root, "--node", id1.toString()}));
        awaitOut(s1, id1, s4, c1);
        assertEquals(5, io.zkion.discovery.tools.ZkIonCli.execute(new String[] {"evict", "--zk", zk.getConnectString(),
            "--root", root, "--node", id1.toString()}));

        Ignite s5 = start("s5");

        await("s5 in", 30_000, () -> s4.cluster().nodes().size() == 3 && c1.cluster().nodes().size() == 3
            && s5.cluster().nodes().size() == 3);

        // The same three failures, at the same topology versions, on the server and the client that stayed.
        List<String> failed4 = failures(on4);

        assertEquals(3, failed4.size());
        assertEquals(failed4, failures(onC));
    }

    /** Waits until {@code gone} is out of every node of {@code stay} and has stopped itself. */
    private void awaitOut(Ignite gone, UUID id, Ignite... stay) throws InterruptedException {
        String name = gone.name();

        await(name + " failed everywhere", 30_000, () -> {
            for (Ignite n : stay) {
                if (n.cluster().node(id) != null)
                    return false;
            }

            return true;
        });
        await(name + " stopped itself", 30_000, () -> Ignition.state(name) == IgniteState.STOPPED_ON_SEGMENTATION
            || Ignition.state(name) == IgniteState.STOPPED);
        nodes.remove(gone);
    }

    private static List<String> failures(List<String> events) {
        return events.stream().filter(e -> e.startsWith("NODE_FAILED")).collect(java.util.stream.Collectors.toList());
    }
}
