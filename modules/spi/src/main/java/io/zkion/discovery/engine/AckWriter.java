package io.zkion.discovery.engine;

import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.coordinator.Coordinator;
import io.zkion.discovery.internal.AckPolicy;
import io.zkion.discovery.internal.AliveRecord;
import io.zkion.discovery.member.Applied;
import io.zkion.discovery.member.Member;
import java.util.List;

/**
 * This node's ack: the id of the last event it applied, in its alive znode. Written on the discovery thread only.
 * <p>
 * A message whose ack message Ignite awaits (it waits on every node's ack) is acked this many ms after it arrives.
 * When the coordinator follows {@link AckPolicy}, other entries are acked only when this node is far behind or the
 * log stood still: they only let the coordinator trim. Under an older coordinator they are acked 500 ms after the
 * last event, or at once when this many events are unacked. Either way acks are coalesced: every node writes them
 * at about the same time, and the trim follows.
 */
final class AckWriter {
    private static final long ACK_SOON_MS = 20;

    /** Under an older coordinator. */
    private static final long ACK_LATER_MS = 500;

    /** Under an older coordinator. */
    private static final int ACK_EVERY = 128;

    private final EngineContext ctx;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final DiscoveryLoop.Delayed ackSoon;
    private final DiscoveryLoop.Delayed ackLater;
    private final DiscoveryLoop.Delayed ackIdle;

    private long ackWritten;
    private int unacked;
    private int unackedEntries;
    private long unackedBytes;
    private long lastAppliedAt;

    AckWriter(EngineContext ctx, Lifecycle lifecycle, Membership membership, DiscoveryLoop loop) {
        this.ctx = ctx;
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.ackSoon = loop.delayed(ACK_SOON_MS, this::delayedAck);
        this.ackLater = loop.delayed(ACK_LATER_MS, this::delayedAck);
        this.ackIdle = loop.delayed(AckPolicy.IDLE_MS, this::idleAck);
    }

    /** After a join: the coordinator set this node's ack one short; the first cycle acks the join. */
    void joined() {
        ackWritten = membership.member().lastEventId() - 1;
    }

    /** Writes this node's ack, or schedules it, as {@link AckPolicy} or an older coordinator expects. */
    void ack(Applied applied) throws Exception {
        unacked += applied.events;
        unackedEntries += applied.entries;
        unackedBytes += applied.bytes;

        if (applied.events > 0)
            lastAppliedAt = System.nanoTime();

        Member member = membership.member();

        if (member.lastEventId() <= ackWritten)
            return;

        if (!AckPolicy.lazy(member.topology()))
            ackPromptly(applied, member);
        else if (unackedEntries >= AckPolicy.entriesBehind(member.topology().size())
            || unackedBytes >= AckPolicy.BYTES_BEHIND)
            writeAck(member.lastEventId());
        else if ((applied.ackAwaited || Coordinator.rolloverDue(member.lastPosition())) && !ackSoon.pending())
            ackSoon.schedule(); // A rollover's drain waits for every member's ack: idle acks held it 3 s and more.
        else
            ackIdle.schedule();
    }

    /** As an older coordinator expects. */
    private void ackPromptly(Applied applied, Member member) throws Exception {
        if (unacked >= ACK_EVERY)
            writeAck(member.lastEventId());
        else if (applied.ackAwaited && !ackSoon.pending())
            ackSoon.schedule();
        else
            ackLater.schedule();
    }

    private void delayedAck() {
        try {
            if (lifecycle.reads() && membership.member().lastEventId() > ackWritten)
                writeAck(membership.member().lastEventId());
        }
        catch (Exception e) {
            // Tried again: with the log standing still, nothing else would wake this node to ack, and the coordinator
            // would hold the trim, and the ack of a message Ignite awaits, for good.
            ctx.log().warning("Failed to write ack, will retry in " + ACK_LATER_MS + " ms: " + e);
            ackLater.schedule();
        }
    }

    /** Acks once nothing was applied for {@link AckPolicy#idleMs}; checks again later while events still come. */
    private void idleAck() {
        if (System.nanoTime() - lastAppliedAt < AckPolicy.idleMs() * 1_000_000L)
            ackIdle.schedule();
        else
            delayedAck();
    }

    private void writeAck(long last) throws Exception {
        List<String> names = ctx.formats().wireNames();

        ctx.store().setData(ctx.paths().alive(ctx.local().id()),
            ctx.codec().encode(AliveRecord.of(ctx.local(), names, last, BuildInfo.release())));
        ackWritten = last;
        unacked = 0;
        unackedEntries = 0;
        unackedBytes = 0;
    }
}
