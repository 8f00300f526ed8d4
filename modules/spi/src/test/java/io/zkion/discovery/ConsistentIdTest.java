package io.zkion.discovery;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.coordinator.Coordinator;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * A node's consistent id, when none is configured, is its addresses and communication port, as with Ignite's other
 * discovery SPIs: the same across restarts, so that affinity and baselines find the node again. Ignite asks for it
 * before it hands the SPI the node's attributes; it used to be the node id then, new at every start.
 */
public class ConsistentIdTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void addressesAndCommunicationPortTheSameAfterARestart() throws Exception {
        int own = freePort();
        Ignite s1 = start(onPort(config("s1", false), own));
        Object first = s1.cluster().localNode().consistentId();
        int port = ((TcpCommunicationSpi)s1.configuration().getCommunicationSpi()).getLocalPort();

        assertNotEquals(s1.cluster().localNode().id(), first);
        assertEquals("127.0.0.1:" + boundPort(s1), first.toString());

        Ignition.stop(s1.name(), true);
        nodes.remove(s1);

        Ignite again = start(onPort(config("s1", false), own));

        assertEquals(port, ((TcpCommunicationSpi)again.configuration().getCommunicationSpi()).getLocalPort());
        assertEquals(first, again.cluster().localNode().consistentId());
    }

    /**
     * A node restarted at once asks to join while the coordinator has yet to log its old self's leave: both are in
     * one step of the coordinator, held meanwhile. The join comes after the leave, where it used to be refused as a
     * node with the consistent id of one still in the topology (CI's CommunicationFailureTest, on a loaded machine).
     */
    @Test(timeout = 120_000) public void aNodeRestartedAtOnceJoinsInTheStepThatLogsItsLeave() throws Exception {
        int own = freePort();
        Ignite s1 = start("s1");
        Ignite s2 = start(onPort(config("s2", false), own));
        Object consistentId = s2.cluster().localNode().consistentId();
        CountDownLatch requested = new CountDownLatch(1);
        CompletableFuture<Ignite> again;

        try (AutoCloseable held = spiOf(s1).engine().holdDiscoveryForTest()) {
            Ignition.stop(s2.name(), true);
            nodes.remove(s2);

            IgniteConfiguration cfg = onPort(config("s2", false), own);

            ((ZkIonDiscoverySpi)cfg.getDiscoverySpi()).setAfterJoinRequestForTest(requested::countDown);
            again = CompletableFuture.supplyAsync(() -> start(cfg));

            assertTrue("the restarted node asked to join", requested.await(30, TimeUnit.SECONDS));
        }

        Ignite s2again = again.get(60, TimeUnit.SECONDS);

        assertEquals(consistentId, s2again.cluster().localNode().consistentId());
        assertEquals(2, s1.cluster().nodes().size());
    }

    /**
     * Two servers fail at once, and one entry holds only one departure (as it holds 256): the other failure waits for
     * the next step. One of them, restarted at once with the same consistent id, asks to join in the first step. Its
     * join waits for its old self's NODE_FAILED; taken in that step it was refused as sharing the consistent id of a
     * member (a review's finding: only stopping nodes held joins back, not failures left for the next step).
     */
    @Test(timeout = 120_000) public void aNodeRestartedAtOnceJoinsAfterFailuresLeftForTheNextStep() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start(config("s2", false).setConsistentId("s2"));
        Ignite s3 = start(config("s3", false).setConsistentId("s3"));
        CountDownLatch requested = new CountDownLatch(1);
        CompletableFuture<Ignite> again;

        Coordinator.maxDeparturesForTest(1);

        try {
            try (AutoCloseable held = spiOf(s1).engine().holdDiscoveryForTest()) {
                // Both sessions end on the server: each node is segmented and stops; s1 sees both gone at once.
                spiOf(s2).engine().expireSessionOnServerForTest();
                spiOf(s3).engine().expireSessionOnServerForTest();
                await("s2 and s3 stopped", 30_000, () -> stopped(s2) && stopped(s3));
                nodes.remove(s2);
                nodes.remove(s3);

                // The one whose failure comes second in s1's step (members in join order) starts again.
                IgniteConfiguration cfg = config("s3", false).setConsistentId("s3");

                ((ZkIonDiscoverySpi)cfg.getDiscoverySpi()).setAfterJoinRequestForTest(requested::countDown);
                again = CompletableFuture.supplyAsync(() -> start(cfg));

                assertTrue("the restarted node asked to join", requested.await(30, TimeUnit.SECONDS));
            }

            Ignite s3again = again.get(60, TimeUnit.SECONDS);

            assertEquals("s3", s3again.cluster().localNode().consistentId());
            assertEquals(2, s1.cluster().nodes().size());
        }
        finally {
            Coordinator.maxDeparturesForTest(0);
        }
    }

    private static boolean stopped(Ignite n) {
        return Ignition.state(n.name()) == org.apache.ignite.IgniteState.STOPPED
            || Ignition.state(n.name()) == org.apache.ignite.IgniteState.STOPPED_ON_SEGMENTATION
            || Ignition.state(n.name()) == org.apache.ignite.IgniteState.STOPPED_ON_FAILURE;
    }

    /** A communication SPI of another class names its port attribute after that class. */
    @Test(timeout = 120_000) public void aCommunicationSpiSubclassToo() throws Exception {
        IgniteConfiguration cfg = config("s1", false);
        TcpCommunicationSpi comm = new TcpCommunicationSpi() { };

        comm.setLocalAddress("127.0.0.1");
        cfg.setCommunicationSpi(comm);

        Ignite s1 = start(cfg);

        assertEquals("127.0.0.1:" + boundPort(s1), s1.cluster().localNode().consistentId().toString());
    }

    /**
     * Binds the node's communication to {@code port} alone: a restart then finds the port it had, though another test
     * JVM runs beside this one and takes ports from Ignite's default range.
     */
    private static IgniteConfiguration onPort(IgniteConfiguration cfg, int port) {
        TcpCommunicationSpi comm = (TcpCommunicationSpi)cfg.getCommunicationSpi();

        comm.setLocalPort(port);
        comm.setLocalPortRange(0);

        return cfg;
    }

    /**
     * @return A port that is free now, below the range the OS hands out for outgoing connections (32768 and up on
     *      Linux), which ZooKeeper's and Ignite's clients in either test JVM could take meanwhile.
     */
    private static int freePort() {
        int from = 20_000 + ThreadLocalRandom.current().nextInt(10_000);

        for (int i = 0; i < 10_000; i++) {
            int port = 20_000 + (from - 20_000 + i) % 10_000;

            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                return s.getLocalPort();
            }
            catch (IOException taken) {
                // The next one.
            }
        }

        throw new IllegalStateException("No free port from 20000 to 29999");
    }

    private static Object boundPort(Ignite n) {
        return n.cluster().localNode().attribute(n.configuration().getCommunicationSpi().getName() + ".comm.tcp.port");
    }
}
