package io.zkion.discovery.engine;

import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.internal.AliveRecord;
import io.zkion.discovery.member.Applied;
import io.zkion.discovery.member.Member;
import java.util.List;

/**
 * This node's ack: the id of the last event it applied, in its alive znode. Written on the discovery thread only.
 * <p>
 * Acks are coalesced: written this many ms after a custom message whose ack message Ignite awaits (it waits
 * on every node's ack), 500 ms after other events, or at once when this many events are unacked. Other acks
 * only let the coordinator trim the log, which can wait. Each ack is a ZooKeeper write, every node writes
 * them at about the same time, and the trim follows: coalescing keeps these bursts from queueing ahead of
 * the next events.
 */
final class AckWriter {
    private static final long ACK_SOON_MS = 20;

    private static final long ACK_LATER_MS = 500;

    private static final int ACK_EVERY = 128;

    private final EngineContext ctx;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final DiscoveryLoop.Delayed ackSoon;
    private final DiscoveryLoop.Delayed ackLater;

    private long ackWritten;
    private int unacked;

    AckWriter(EngineContext ctx, Lifecycle lifecycle, Membership membership, DiscoveryLoop loop) {
        this.ctx = ctx;
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.ackSoon = loop.delayed(ACK_SOON_MS, this::delayedAck);
        this.ackLater = loop.delayed(ACK_LATER_MS, this::delayedAck);
    }

    /** After a join: the coordinator set this node's ack one short; the first cycle acks the join. */
    void joined() {
        ackWritten = membership.member().lastEventId() - 1;
    }

    /** Writes this node's ack soon after a message whose ack is awaited, later after other events, at once after many. */
    void ack(Applied applied) throws Exception {
        unacked += applied.events;

        Member member = membership.member();

        if (member.lastEventId() <= ackWritten)
            return;

        if (unacked >= ACK_EVERY)
            writeAck(member.lastEventId());
        else if (applied.ackAwaited && !ackSoon.pending())
            ackSoon.schedule();
        else
            ackLater.schedule();
    }

    private void delayedAck() {
        try {
            if (lifecycle.is(State.JOINED) && membership.member().lastEventId() > ackWritten)
                writeAck(membership.member().lastEventId());
        }
        catch (Exception e) {
            ctx.log().warning("Failed to write ack: " + e);
        }
    }

    private void writeAck(long last) throws Exception {
        List<String> names = ctx.formats().wireNames();

        ctx.store().setData(ctx.paths().alive(ctx.local().id()),
            ctx.codec().encode(AliveRecord.of(ctx.local(), names, last, BuildInfo.release())));
        ackWritten = last;
        unacked = 0;
    }
}
