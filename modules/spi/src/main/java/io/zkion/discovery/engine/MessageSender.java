package io.zkion.discovery.engine;

import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.engine.NodeEngine.State;
import io.zkion.discovery.log.LogEntryWriter;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.LogGate;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.IgniteClientDisconnectedException;
import org.apache.ignite.IgniteException;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.zookeeper.KeeperException;

/**
 * Sends this node's custom messages, on the caller's thread. A plain message goes straight into the log, one
 * ZooKeeper write, checked against the log gate: the log's order is the cluster's order. It goes through the
 * coordinator's queue instead when it is mutable (Ignite expects the coordinator to see it first), when the gate
 * is closed (the coordinator is taking a join in), or while an earlier message of this node waits there (this
 * node's messages keep their order).
 */
final class MessageSender {
    /** Appends of one message in a row that met a moving gate, before it goes through the coordinator instead. */
    private static final int MAX_APPEND_ATTEMPTS = 3;

    /** How often a stopping node looks whether the coordinator took its queued messages. */
    private static final long QUEUE_POLL_MS = 20;

    private final EngineContext ctx;
    private final ZkStore store;
    private final Lifecycle lifecycle;
    private final Membership membership;
    private final LogGate<GateState> gate;
    private final OutageGuard outage;
    private final Object sendLock = new Object();

    /** Paths of this node's messages in the coordinator's queue, not known to be logged yet; a stop reads it too. */
    private final List<String> queued = new CopyOnWriteArrayList<>();

    MessageSender(EngineContext ctx, Lifecycle lifecycle, Membership membership, OutageGuard outage) {
        this.ctx = ctx;
        this.store = ctx.store();
        this.lifecycle = lifecycle;
        this.membership = membership;
        this.outage = outage;

        ZkPaths paths = ctx.paths();

        this.gate = new LogGate<>(ctx.client(), paths.gate, data -> ctx.codec().decodeGate(data, paths.gate),
            g -> g.open);
    }

    /** @return The log gate as this node last read it: whether members append, and in which format. */
    GateState gate() throws Exception {
        return gate.current().value;
    }

    void send(DiscoverySpiCustomMessage msg) {
        State state = lifecycle.state();

        if (state == State.DISCONNECTED)
            throw new IgniteClientDisconnectedException(null, "Client node is disconnected");

        if (state != State.JOINED)
            throw new IgniteException("Failed to send a custom message: this node is not in the cluster (" + state + ')');

        if (!ctx.hooks().beforeSend(msg))
            return;

        byte[] data = ctx.objects().marshal(msg);

        outage.awaitConnected(); // Held while ZooKeeper is out; sent, in order, once it is back.

        try {
            synchronized (sendLock) {
                outage.awaitConnected(); // Behind another held message of this node.

                for (int attempt = 0; attempt < MAX_APPEND_ATTEMPTS && !msg.isMutable() && !queuedAhead(); attempt++) {
                    LogGate.Seen<GateState> open = gate.openOrNull();

                    if (open == null)
                        break;

                    if (append(data, open.value, open.version) != null)
                        return;

                    gate.invalidate(); // It moved since it was read: read it again.
                    ctx.metrics().onGateWait();
                }

                // In the format the cluster writes now, which the gate names: the one of this node's join may be one
                // the coordinator no longer reads (a node that reads only an older one took over).
                queued.add(append(data, gate.current().value, -1));
            }
        }
        catch (IgniteException e) {
            throw e;
        }
        catch (Exception e) {
            throw new IgniteException("Failed to send a custom message through ZooKeeper: " + e, e);
        }
    }

    /** @return Whether a message this node queued for the coordinator is not in the log yet. */
    private boolean queuedAhead() throws Exception {
        // The coordinator deletes a queued message in the same multi that logs it.
        for (String path : queued) {
            if (!store.exists(path))
                queued.remove(path);
        }

        return !queued.isEmpty();
    }

    /**
     * Waits, at most {@code ms}, until the coordinator has taken every message this node queued for it. A node that
     * stops marks itself as leaving only then, so that it still acks and reads while its messages are logged. The
     * coordinator holds its NODE_LEFT until they are in any case (Departures), also when the wait runs out.
     *
     * @return How many were still queued when the wait ended.
     */
    int awaitQueuedTaken(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);

        try {
            while (queuedAhead() && System.nanoTime() < end)
                Thread.sleep(QUEUE_POLL_MS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Exception e) {
            ctx.log().warning("Cannot tell whether the coordinator took this node's queued custom messages: " + e);
        }

        return queued.size();
    }

    /**
     * Writes one custom message into the log, checked against the gate at {@code gateVersion}, or, if that is
     * negative, into the coordinator's queue. In the gate's format and log epoch: a member that passes the check
     * wrote in those the coordinator had published at that moment.
     *
     * @return The path created, or null if the gate moved.
     */
    private String append(byte[] data, GateState gateSeen, int gateVersion) throws Exception {
        Member member = membership.member();
        LogEntryWriter entries = ctx.entries();
        FormatId fmt = FormatId.ofWireName(gateSeen.format);
        List<DiscoveryEvent> events = Collections.singletonList(DiscoveryEvent.custom(0, 0, ctx.local().id(), data));
        LogEntryWriter.Draft p = gateVersion >= 0
            ? entries.logEntry(member.clusterId(), 0, events, fmt == null ? FormatId.ION_1 : fmt, gateSeen.logEpoch)
            : entries.queued(member.clusterId(), events, fmt == null ? FormatId.ION_1 : fmt);
        List<CuratorOp> ops = new ArrayList<>(p.prepared.ops);

        if (gateVersion >= 0)
            ops.add(gate.checkOp(gateVersion));

        // Only while this node is in: a session that ended under the send (a pause past the session timeout) has
        // Curator run the multi again in a new one, where it would land as a message of a node the cluster took
        // out, which no member delivers, while the send returned as if sent.
        ops.add(store.checkOp(ctx.paths().alive(ctx.local().id())));

        String created;

        try {
            created = store.commit(ops).get(0).getResultPath();
        }
        catch (KeeperException.BadVersionException moved) {
            return null;
        }
        catch (KeeperException.NoNodeException out) {
            if (ctx.local().isClient())
                throw new IgniteClientDisconnectedException(null, "The message was not sent: this client's ZooKeeper"
                    + " session ended, and the cluster took it out");

            throw new IgniteException("The message was not sent: this node's ZooKeeper session ended, and the cluster"
                + " took it out");
        }

        ctx.metrics().onWritten(p.size);

        return created;
    }
}
