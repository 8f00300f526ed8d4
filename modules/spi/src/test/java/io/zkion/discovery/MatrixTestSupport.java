package io.zkion.discovery;

import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.CommunicationFailureResolver;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.junit.Before;

/**
 * Real nodes whose connection checks answer from a matrix ({@link MatrixCommunicationSpi}): the support of the
 * communication-failure tests that need no resolver of their own making, or one ({@link #resolver}).
 */
public abstract class MatrixTestSupport extends ZkIonTestSupport {
    @Before public void resetMatrix() {
        MatrixCommunicationSpi.reset();
    }

    /** @return The resolver every node gets; null for Ignite's default. */
    protected CommunicationFailureResolver resolver() {
        return null;
    }

    @Override protected IgniteConfiguration config(String name, boolean client) {
        MatrixCommunicationSpi comm = new MatrixCommunicationSpi();

        comm.setLocalAddress("127.0.0.1");

        IgniteConfiguration cfg = super.config(name, client).setCommunicationSpi(comm);
        CommunicationFailureResolver r = resolver();

        return r == null ? cfg : cfg.setCommunicationFailureResolver(r);
    }

    /** @return The outcome of {@code from}'s call on {@code peer}: null if it returned, else what it threw. */
    protected static CompletableFuture<Throwable> resolve(Ignite from, Ignite peer) {
        return resolve(from, peer.cluster().localNode());
    }

    /** @return The outcome of {@code from}'s call on {@code p}, which may have stopped already. */
    protected static CompletableFuture<Throwable> resolve(Ignite from, ClusterNode p) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                spiOf(from).resolveCommunicationFailure(p, new Exception("test: cannot reach " + p.id()));
                return null;
            }
            catch (Throwable t) {
                return t;
            }
        }, r -> new Thread(r, "resolve-" + p.id()).start()); // A thread each: calls wait together.
    }

    /** Asserts that a call threw Ignite's "node failed" for {@code peer}. */
    protected static void assertPeerFailed(Throwable t, java.util.UUID peer) {
        org.junit.Assert.assertNotNull("the call threw", t);
        org.junit.Assert.assertTrue(String.valueOf(t), t instanceof org.apache.ignite.spi.IgniteSpiException);
        org.junit.Assert.assertTrue(String.valueOf(t.getCause()),
            t.getCause() instanceof org.apache.ignite.internal.cluster.ClusterTopologyCheckedException);
        org.junit.Assert.assertTrue(t.getMessage(), t.getMessage().contains(peer.toString()));
    }

    /** @return Whether {@code n} has a round open; a node whose SPI has stopped (its engine gone) has none. */
    private static boolean roundOpen(Ignite n) {
        io.zkion.discovery.engine.NodeEngine e = spiOf(n).engine();

        return e != null && e.roundOpenForTest();
    }

    /** @return Whether {@code n} is still running: a node a verdict removed stops. */
    protected static boolean running(Ignite n) {
        return org.apache.ignite.Ignition.allGrids().stream().anyMatch(g -> g == n);
    }

    /**
     * Waits until comm/ holds no call and no round, and no running node of this test has a round open: the verdict is
     * logged and cleaned up in ZooKeeper and in every node.
     */
    protected void awaitRoundOver() throws Exception {
        await("no running node has a round open", 60_000, () -> {
            synchronized (nodes) {
                return nodes.stream().filter(MatrixTestSupport::running).noneMatch(MatrixTestSupport::roundOpen);
            }
        });

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            c.start();

            await("comm/ empty", 60_000, () -> {
                try {
                    return c.checkExists().forPath(root + "/comm") == null
                        || c.getChildren().forPath(root + "/comm").isEmpty();
                }
                catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}
