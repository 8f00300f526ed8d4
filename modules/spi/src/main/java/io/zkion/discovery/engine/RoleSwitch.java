package io.zkion.discovery.engine;

import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.coordinator.CoordinatorTask;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import java.util.Set;
import java.util.UUID;

/**
 * Whether this node coordinates: the oldest server alive does. Every way into and out of the coordinator's role
 * goes through here, on the discovery thread.
 */
final class RoleSwitch {
    /** The coordinator's safety net: the longest it goes without a cycle. */
    private static final long TICK_MS = 2_000;

    /** {@link #TICK_MS}, unless a test that must see what happens between two ticks set it longer. */
    private static volatile long tickMs = TICK_MS;

    private final EngineContext ctx;
    private final Membership membership;
    private final DiscoveryLoop loop;
    private final CoordinatorTask.Factory tasks;

    /**
     * While coordinating, a cycle runs at least this often with alive/, custom/ and left/ listed afresh: should a
     * ZooKeeper notification be lost, or a step fail after taking it, a join, a departure or a queued message waits
     * a tick, not forever.
     */
    private final DiscoveryLoop.Delayed tick;

    /** Set while this node coordinates; read by a stopping thread too. */
    private volatile Coordinator crd;

    RoleSwitch(EngineContext ctx, Membership membership, LogWatch watch, DiscoveryLoop loop,
        CoordinatorTask.Factory tasks) {
        this.ctx = ctx;
        this.tasks = tasks;
        this.membership = membership;
        this.loop = loop;
        this.tick = loop.delayed(tickMs, () -> {
            watch.markAliveDirty();

            if (crd != null)
                crd.tick();

            loop.trigger();
        });
    }

    /** Sets the tick of the nodes started from now on in this JVM; 0 restores {@link #TICK_MS}. */
    static void tickMsForTest(long ms) {
        tickMs = ms > 0 ? ms : TICK_MS;
    }

    /** @return The coordinator, while this node is it; null otherwise. */
    Coordinator coordinator() {
        return crd;
    }

    boolean isCoordinator() {
        return crd != null;
    }

    /**
     * @return Whether this node coordinates and no other node is alive, as ZooKeeper lists alive/ now. Not as the
     *      coordinator's cache has it: one that missed a departure kept the cluster's znodes after the last node stopped.
     *      False if ZooKeeper cannot tell: the cluster's znodes stay, for the next node to clean.
     */
    boolean coordinatesAlone() {
        if (crd == null)
            return false;

        try {
            for (String name : ctx.store().children(ctx.paths().alive)) {
                if (!ctx.local().id().equals(ZkPaths.nodeId(name)))
                    return false;
            }

            return true;
        }
        catch (Exception e) {
            ctx.log().warning("Could not list the alive nodes as the coordinator stops; leaving the cluster's znodes: " + e);

            return false;
        }
    }

    /** Takes the role up or gives it up, as the oldest server among {@code alive} is this node or not. */
    void settle(Set<UUID> alive) throws Exception {
        ZkIonClusterNode oldest = membership.member().topology().oldestServer(alive);
        boolean mine = oldest == ctx.local();

        if (mine && crd == null)
            becomeCoordinator();
        else if (!mine && crd != null)
            resign();
    }

    /** Lets the coordinator work, if this node is it. */
    void step(Set<UUID> alive) throws Exception {
        if (crd != null) {
            tick.schedule(); // First: the tick must come even after a step that throws.
            crd.step(alive);
        }
    }

    void resign() {
        if (crd != null) {
            crd.close();
            crd = null;
        }
    }

    private void becomeCoordinator() throws Exception {
        Member member = membership.member();

        crd = new Coordinator(ctx.store(), ctx.codec(), ctx.formats(), ctx.objects(), member, ctx.host(), ctx.local(),
            ctx.metrics(), ctx.snapshots(), ctx.notifier(), loop::trigger, tasks);
    }
}
