package io.zkion.discovery.engine;

import io.zkion.discovery.coordinator.FencedException;
import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Applied;
import io.zkion.discovery.member.LogGapException;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * One cycle, on the discovery thread: catch up with the log, check this node is still in the cluster, settle
 * who coordinates and let the coordinator work, then ack.
 */
final class DiscoveryCycle {
    private final ZkStore store;
    private final ZkPaths paths;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final LogWatch watch;
    private final RoleSwitch role;
    private final AckWriter acks;
    private final SessionLoss sessionLoss;
    private final DiscoveryLoop loop;
    private final OutageGuard outage;

    /** The alive/ listing, kept between cycles and listed anew when the watch says it changed; the coordinator's. */
    private Set<UUID> alive = new HashSet<>();

    DiscoveryCycle(EngineContext ctx, Lifecycle lifecycle, Membership membership, LogWatch watch, RoleSwitch role,
        AckWriter acks, SessionLoss sessionLoss, DiscoveryLoop loop, OutageGuard outage) {
        this.store = ctx.store();
        this.paths = ctx.paths();
        this.local = ctx.local();
        this.log = ctx.log();
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.watch = watch;
        this.role = role;
        this.acks = acks;
        this.sessionLoss = sessionLoss;
        this.loop = loop;
        this.outage = outage;
    }

    void run() {
        // While ZooKeeper is out, nothing can be read or written: the reconnection runs the next cycle.
        if (!lifecycle.reads() || outage.active())
            return;

        try {
            Member member = membership.member();

            if (membership.sessionReplaced()) {
                sessionLoss.onExcluded(); // A new session: this node's alive znode went with the old one.
                return;
            }

            Applied applied = new Applied();

            if (watch.takeLogDirty())
                applied = member.catchUp();
            else {
                List<String> created = watch.drainCreated();
                List<String> deleted = watch.drainDeleted();

                if (!created.isEmpty())
                    applied = member.catchUpCreated(created);

                if (!deleted.isEmpty())
                    member.onDeleted(deleted);
            }

            if (member.excluded()) {
                sessionLoss.onExcluded();
                return;
            }

            // A stop waiting on its queue reads and acks, and takes no role: it leaves as soon as the queue is taken.
            if (lifecycle.is(State.LEAVING)) {
                acks.ack(applied);
                return;
            }

            if (!lifecycle.is(State.JOINED))
                return;

            if (!settleRole(member))
                return;

            acks.ack(applied);
        }
        catch (FencedException e) {
            log.info(e.getMessage());
            role.resign();
            watch.markAllDirty();
            loop.trigger();
        }
        catch (LogGapException e) {
            // Left behind: nothing past the hole reaches Ignite. A node the cluster failed out is out as it would be
            // had it seen its exclusion first, and so is a client whatever took its history (its cluster refounded
            // under it, say): a client that may reconnect rejoins with a fresh one. A server is segmented.
            log.error("Discovery cannot go on: " + e.getMessage());

            if (local.isClient() || excludedMeanwhile())
                sessionLoss.onExcluded();
            else
                sessionLoss.segmented();
        }
        catch (IgniteSpiException e) {
            // A corrupt log entry: never skip it, that would fork this node's view. Fail loudly instead.
            log.error("Discovery cannot go on: " + e.getMessage(), e);
            sessionLoss.segmented();
        }
        catch (Exception e) {
            if (lifecycle.reads() && !outage.active()) {
                // A stop waiting on its queue retries quietly: the outage guard no longer tells it ZooKeeper is out.
                if (lifecycle.is(State.JOINED))
                    log.warning("Discovery cycle failed, will retry on the next change: " + e, e);

                watch.markAllDirty();
                loop.triggerAfter(200);
            }
        }
    }

    /**
     * Settles who coordinates and lets the coordinator work. A node that does not coordinate watches its elder's alive
     * znode only; one with no elder alive is the oldest server, lists alive/ and takes the role.
     *
     * @return Whether this node stays in the cluster; false once it found itself out.
     */
    private boolean settleRole(Member member) throws Exception {
        if (!role.isCoordinator() && watch.elder(member.topology()) != null) {
            watch.watchAlive(false);
            return true;
        }

        // A client with no server left (the cluster stopped or restarts) rejoins whatever comes up next.
        if (local.isClient()) {
            sessionLoss.onExcluded();
            return false;
        }

        watch.watchAlive(true);

        if (watch.takeAliveDirty())
            alive = ZkPaths.nodeIds(store.children(paths.alive));

        if (!alive.contains(local.id())) {
            sessionLoss.onExcluded();
            return false;
        }

        role.settle(alive);
        role.step(alive);

        return true;
    }

    /** @return Whether this node's session or its alive znode is gone: the cluster has taken it out. */
    private boolean excludedMeanwhile() {
        try {
            return membership.sessionReplaced() || !store.exists(paths.alive(local.id()));
        }
        catch (Exception e) {
            return false; // ZooKeeper cannot tell: segmented, the safe way out.
        }
    }
}
