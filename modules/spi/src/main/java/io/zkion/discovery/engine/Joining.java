package io.zkion.discovery.engine;

import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.ignite.spi.IgniteSpiException;

/** The engine's side of a join: the layout in ZooKeeper, the handshake on the discovery thread, the wait for it. */
final class Joining {
    private final EngineContext ctx;
    private final ZkStore store;
    private final ZkPaths paths;
    private final Membership membership;
    private final AckWriter acks;
    private final LogWatch watch;
    private final DiscoveryLoop loop;
    private final OutageGuard outage;

    /** The first join while it runs: a stop fails it, and the starter thread waiting on it returns at once. */
    private final CompletableFuture<Void> firstJoin = new CompletableFuture<>();

    /** Whether the node is being stopped: a handshake gives up at its next step. */
    private final BooleanSupplier stopped;

    Joining(EngineContext ctx, Membership membership, AckWriter acks, LogWatch watch, DiscoveryLoop loop,
        OutageGuard outage, BooleanSupplier stopped) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.membership = membership;
        this.acks = acks;
        this.watch = watch;
        this.loop = loop;
        this.outage = outage;
        this.stopped = stopped;
    }

    /** Creates the znodes every node needs, and refuses a root that holds another discovery's. */
    private void prepareLayout() {
        try {
            Set<String> present = store.rootChildren();

            refuseStockLayout(present); // Before anything is written: a foreign root stays as it was.
            store.ensureLayout(present, ctx.codec().encode(new GateState(true, ctx.formats().preferred().wireName())));
        }
        catch (IgniteSpiException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IgniteSpiException("Failed to prepare " + paths.root + " in ZooKeeper: " + e, e);
        }
    }

    private void refuseStockLayout(Set<String> present) {
        if (present.contains("e") || present.contains("jd")) {
            throw new IgniteSpiException(paths.root + " holds the znodes of Ignite's stock ZookeeperDiscoverySpi: "
                + "give ZkIonDiscoverySpi its own zkRootPath (the two layouts cannot share a root)");
        }
    }

    /**
     * The first join, on the discovery thread: the layout, the handshake, the watches, then the first cycle. The
     * starter thread only waits for it: ZooKeeper's client may clear an interrupt (its close does), and Ignite stops a
     * starting node by interrupting that thread once, so no ZooKeeper call runs there.
     */
    CompletableFuture<Void> joinAsync(Runnable firstCycle) {
        try {
            loop.execute(() -> {
                try {
                    prepareLayout();
                    join();

                    watch.start();
                    firstCycle.run();

                    firstJoin.complete(null);
                }
                catch (Throwable e) {
                    firstJoin.completeExceptionally(e);
                }
            });
        }
        catch (RejectedExecutionException stopped) {
            giveUp();
        }

        return firstJoin;
    }

    /** A stop came while the first join is pending: it fails now, whatever the discovery thread is doing. */
    void giveUp() {
        firstJoin.completeExceptionally(new IgniteSpiException("Stopped while joining: the node is being stopped"));
    }

    /** Waits for a join, telling every 10 seconds that it still does. */
    void awaitJoin(CompletableFuture<Void> fut, String what) {
        while (true) {
            try {
                fut.get(10, TimeUnit.SECONDS);

                return;
            }
            catch (TimeoutException e) {
                ctx.log().info(what + " [node=" + ctx.local().id() + ", root=" + paths.root + ']');
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // Kept: Ignite interrupts a start it stops, and reads nothing else.
                throw new IgniteSpiException("Interrupted while joining (the node is being stopped)", e);
            }
            catch (ExecutionException e) {
                Throwable c = e.getCause();

                // A refusal reaches Ignite as the plain IgniteSpiException other SPIs throw, which Ignite's own
                // tests look for by its exact class; the refusal with its kind stays the cause.
                if (c instanceof JoinRefusedException)
                    throw new IgniteSpiException(c.getMessage(), c);

                if (c instanceof IgniteSpiException)
                    throw (IgniteSpiException)c;

                throw new IgniteSpiException("Failed to join: " + c, c);
            }
        }
    }

    /** The handshake of a join or a client's rejoin, on the discovery thread; the node is JOINED after it. */
    void join() throws Exception {
        ctx.hooks().beforeJoin();

        new Joiner(ctx, stopped).join(membership::adopt);

        acks.joined();

        // A suspension between the answer and JOINED found the node joining, where the guard leaves it be.
        outage.joined();
    }
}
