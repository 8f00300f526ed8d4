package io.zkion.discovery.engine;

import java.util.Collection;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteBiPredicate;
import org.apache.ignite.spi.IgniteSpiContext;

/**
 * Asks other nodes, over Ignite's communication (which does not need ZooKeeper), whether they reach ZooKeeper, and
 * answers their questions. It is how a node that lost ZooKeeper tells an outage of the ensemble, which every node
 * sees, from its own isolation, which the others do not see.
 */
final class PeerProbe implements AutoCloseable {
    /** The communication topic of the questions and answers. */
    static final String TOPIC = "io.zkion.discovery.zk-reach";

    /** Where answers go: a peer's answer to the question of outage {@code outage}. */
    interface Answers {
        void answered(UUID peer, long outage, boolean reaches);
    }

    private final BooleanSupplier reachesZk;
    private final Answers answers;
    private final Consumer<UUID> leavers;
    private final IgniteLogger log;
    private final IgniteBiPredicate<UUID, Object> receiver = this::received;
    private volatile IgniteSpiContext ctx;
    /** Sends off the asker's thread: a send to a node that does not answer blocks for Ignite's connect timeout. */
    private final ExecutorService sends = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "zkion-outage-ask");

        t.setDaemon(true);

        return t;
    });
    /** Peers a question is still being sent to: not asked again until it is out. */
    private final Set<UUID> sending = ConcurrentHashMap.newKeySet();

    /**
     * @param reachesZk Whether this node is connected to ZooKeeper now: what it answers.
     * @param leavers Gets each peer that said it is stopping.
     */
    PeerProbe(BooleanSupplier reachesZk, Answers answers, Consumer<UUID> leavers, IgniteLogger log) {
        this.reachesZk = reachesZk;
        this.answers = answers;
        this.leavers = leavers;
        this.log = log;
    }

    /** Answers and hears answers through {@code ctx}: Ignite's real context, once the kernal has started. */
    void listen(IgniteSpiContext ctx) {
        close();
        this.ctx = ctx;
        ctx.addLocalMessageListener(TOPIC, receiver);
    }

    /**
     * Asks each of {@code peers}, each send on its own thread, so that a peer that does not answer holds up neither
     * the others nor the caller; such a peer is simply not heard from.
     */
    void ask(long outage, Collection<ClusterNode> peers) {
        sendEach(peers, Reach.question(outage), true);
    }

    /**
     * Tells each of {@code peers} that this node is stopping, while Ignite's communication still carries messages
     * (it stops taking them in before discovery stops): from then on this node answers no question, and a peer that
     * waited for its answer through an outage would segment itself for nothing.
     */
    void announceLeaving(Collection<ClusterNode> peers) {
        sendEach(peers, Reach.leaving(), false);
    }

    /** @param once One such message in flight per peer (questions): a peer still being sent one is skipped. */
    private void sendEach(Collection<ClusterNode> peers, long[] msg, boolean once) {
        IgniteSpiContext c = ctx;

        if (c == null)
            return;

        for (ClusterNode n : peers) {
            if (once && !sending.add(n.id()))
                continue;

            try {
                sends.execute(() -> {
                    try {
                        c.send(n, msg, TOPIC);
                    }
                    catch (Exception e) {
                        if (log.isDebugEnabled())
                            log.debug("ZooKeeper reach message not sent to " + n.id() + ": " + e);
                    }
                    finally {
                        if (once)
                            sending.remove(n.id());
                    }
                });
            }
            catch (RuntimeException closed) {
                if (once)
                    sending.remove(n.id());
            }
        }
    }

    private boolean received(UUID from, Object msg) {
        Reach r = Reach.of(msg);

        if (r == null)
            return true;

        if (r.kind == Reach.LEAVING) {
            leavers.accept(from);
            return true;
        }

        if (r.kind == Reach.ANSWER) {
            answers.answered(from, r.outage, r.reaches);
            return true;
        }

        IgniteSpiContext c = ctx;
        ClusterNode asker = c == null ? null : c.node(from);

        if (asker != null) {
            try {
                c.send(asker, Reach.answer(r.outage, reachesZk.getAsBoolean()), TOPIC);
            }
            catch (Exception e) {
                if (log.isDebugEnabled())
                    log.debug("ZooKeeper reach answer not sent to " + from + ": " + e);
            }
        }

        return true; // Keep listening.
    }

    /** Stops listening, and sending for good. */
    void shutdown() {
        close();
        sends.shutdownNow();
    }

    /** Stops listening (until {@link #listen} again). */
    @Override public void close() {
        IgniteSpiContext c = ctx;

        ctx = null;

        if (c != null) {
            try {
                c.removeLocalMessageListener(TOPIC, receiver);
            }
            catch (RuntimeException ignored) {
                // The context is gone with the node.
            }
        }
    }

    /**
     * A question ("do you reach ZooKeeper?") or its answer, for one outage of the asker, or a stopping node's notice.
     * On the wire a {@code long[]}:
     * Ignite's binary marshaller sends it as it is, where a class of ours would first need its type registered
     * through discovery, which is what is out.
     */
    static final class Reach {
        private static final long QUESTION = 0x5a4b5251L;
        private static final long ANSWER = 0x5a4b5241L;
        private static final long LEAVING = 0x5a4b524cL;

        final long kind;
        final long outage;
        final boolean reaches;

        private Reach(long kind, long outage, boolean reaches) {
            this.kind = kind;
            this.outage = outage;
            this.reaches = reaches;
        }

        static long[] question(long outage) {
            return new long[] {QUESTION, outage, 0};
        }

        static long[] answer(long outage, boolean reaches) {
            return new long[] {ANSWER, outage, reaches ? 1 : 0};
        }

        static long[] leaving() {
            return new long[] {LEAVING, 0, 0};
        }

        /** @return The question or answer {@code msg} holds, or null if it is none. */
        static Reach of(Object msg) {
            if (!(msg instanceof long[]) || ((long[])msg).length != 3)
                return null;

            long[] m = (long[])msg;

            return m[0] == QUESTION || m[0] == ANSWER || m[0] == LEAVING ? new Reach(m[0], m[1], m[2] == 1) : null;
        }
    }
}
