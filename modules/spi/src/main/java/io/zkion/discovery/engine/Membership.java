package io.zkion.discovery.engine;

import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.NodeDataReader;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * What this node's latest join gave it: the member it runs as, the cluster state it joined and the ZooKeeper
 * session it joined with. Only a join writes them, on the discovery thread; anyone reads them.
 */
final class Membership {
    private final EngineContext ctx;
    private final Lifecycle lifecycle;

    private volatile Member member;
    private volatile ClusterState joinedState;

    /** The ZooKeeper session this node joined with; a different one means its ephemeral nodes are gone. */
    private volatile long sessionId;

    Membership(EngineContext ctx, Lifecycle lifecycle) {
        this.ctx = ctx;
        this.lifecycle = lifecycle;
    }

    /** @return The member, null before the first join. */
    Member member() {
        return member;
    }

    /** @return The cluster state this node joined, null before the first join. */
    ClusterState joinedState() {
        return joinedState;
    }

    long sessionId() {
        return sessionId;
    }

    Topology topology() {
        Member m = member;

        return m == null ? Topology.EMPTY : m.topology();
    }

    /**
     * Makes the member a join hands over to, and moves the node to JOINED. The member is published first, so that
     * whoever sees JOINED finds it; a stop that came first wins, and the join fails.
     */
    Member adopt(ClusterState joined, long session) {
        Member m = new Member(ctx.store(), ctx.formats(), ctx.codec(), ctx.objects(),
            new NodeDataReader(ctx.store(), ctx.codec()), ctx.notifier(), ctx.host(), ctx.metrics(), ctx.local());
        Member prevMember = member;
        ClusterState prevState = joinedState;
        long prevSession = sessionId;

        // The session it joined in, not the current one: a session that ended meanwhile is one lost (SessionLoss).
        sessionId = session;

        member = m;
        joinedState = joined;

        if (!lifecycle.joined()) {
            member = prevMember;
            joinedState = prevState;
            sessionId = prevSession;

            throw new IgniteSpiException("Stopped while joining");
        }

        return m;
    }

    /** @return Whether ZooKeeper has given this client a session other than the one it joined with. */
    boolean sessionReplaced() {
        return currentSession() != sessionId;
    }

    private long currentSession() {
        try {
            return ctx.client().getZookeeperClient().getZooKeeper().getSessionId();
        }
        catch (Exception e) {
            return -1;
        }
    }
}
