package io.zkion.discovery.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>
 * Each peer is asked once per outage: an answer promises to be sent again whenever the answerer's reach changes, so
 * no node polls every other while the outage lasts (N² messages a round at N servers). Answers carry the answerer's
 * sequence number, since a pushed answer and a reply travel on different threads and may cross. A peer that answers
 * without the promise (a release before it) is asked again on every tick, as it was.
 */
final class PeerProbe implements AutoCloseable {
    /** The communication topic of the questions and answers. */
    static final String TOPIC = "io.zkion.discovery.zk-reach";

    /** Where answers go: a peer's answer to the question of outage {@code outage}. */
    interface Answers {
        void answered(UUID peer, long outage, boolean reaches);
    }

    /** How many of the peers that promised are asked again on each tick all the same. */
    static final int RECHECKED = 2;

    /** Numbers this node's answers: a peer keeps only the latest it got. */
    private final AtomicLong answerSeq = new AtomicLong();
    /** Askers that take pushed answers, with the outage they asked about: told when this node's reach changes. */
    private final Map<UUID, Long> askers = new ConcurrentHashMap<>();
    /** The peers whose answer to this node's outage came with the promise, by the outage: not asked again. */
    private final Map<UUID, Long> promised = new ConcurrentHashMap<>();
    /** The sequence number of each peer's latest answer: an older one arriving late is dropped. */
    private final Map<UUID, Long> latestSeq = new ConcurrentHashMap<>();

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
     * Asks each of {@code peers} that has not promised to tell this node of its reach in this outage, each send on
     * its own thread, so that a peer that does not answer holds up neither the others nor the caller; such a peer
     * is simply not heard from.
     */
    void ask(long outage, Collection<ClusterNode> peers) {
        List<ClusterNode> unsure = new ArrayList<>(peers.size());
        List<ClusterNode> sure = new ArrayList<>(peers.size());

        for (ClusterNode n : peers)
            (Long.valueOf(outage).equals(promised.get(n.id())) ? sure : unsure).add(n);

        // A pushed answer is lost if its connection fails: a few of the peers that promised are asked again each time,
        // at random, so that a frozen node still hears once the peers are back.
        Collections.shuffle(sure, ThreadLocalRandom.current());
        unsure.addAll(sure.subList(0, Math.min(RECHECKED, sure.size())));

        sendEach(unsure, Reach.question(outage), true);
    }

    /**
     * This node's reach changed: tells every asker that took the promise. Once it reaches ZooKeeper again, its askers
     * are forgotten: the news that matters to them is sent, and a later outage of theirs asks anew.
     */
    void reachChanged() {
        IgniteSpiContext c = ctx;

        if (c == null || askers.isEmpty())
            return;

        long seq = answerSeq.incrementAndGet(); // Before the read: a later number never carries older news.
        boolean reaches = reachesZk.getAsBoolean();

        for (Map.Entry<UUID, Long> e : askers.entrySet()) {
            ClusterNode n = c.node(e.getKey());

            if (n == null)
                askers.remove(e.getKey()); // Gone from the topology.
            else
                sendEach(Collections.singletonList(n), Reach.answer(e.getValue(), reaches, seq), false);
        }

        if (reaches)
            askers.clear();
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
            if (r.seq > 0 && latestSeq.merge(from, r.seq, Math::max) != r.seq)
                return true; // Overtaken by a later answer of the same peer.

            if (r.promise)
                promised.put(from, r.outage);

            answers.answered(from, r.outage, r.reaches);
            return true;
        }

        IgniteSpiContext c = ctx;
        ClusterNode asker = c == null ? null : c.node(from);

        if (asker != null) {
            long[] answer;

            // The asker's own outage number; registered before the reach is read, so a change after is pushed.
            if (r.promise) {
                askers.put(from, r.outage);

                long seq = answerSeq.incrementAndGet(); // Before the read: a later number never carries older news.

                answer = Reach.answer(r.outage, reachesZk.getAsBoolean(), seq);
            }
            else
                answer = Reach.legacyAnswer(r.outage, reachesZk.getAsBoolean());

            try {
                c.send(asker, answer, TOPIC);
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
     * On the wire a {@code long[]} of {kind, the asker's outage, flags}:
     * Ignite's binary marshaller sends it as it is, where a class of ours would first need its type registered
     * through discovery, which is what is out.
     * <p>
     * Flags of a question: 1 if the asker takes pushed answers. Of an answer to such an asker: the answerer's sequence
     * number, shifted left by 2, then 2 (the promise) and 1 if it reaches ZooKeeper. To any other asker (a release
     * before the promise): 1 if it reaches ZooKeeper, else 0, as that release reads it.
     */
    static final class Reach {
        private static final long QUESTION = 0x5a4b5251L;
        private static final long ANSWER = 0x5a4b5241L;
        private static final long LEAVING = 0x5a4b524cL;

        final long kind;
        final long outage;
        final boolean reaches;
        /** A question: the asker takes pushed answers. An answer: the answerer will push. */
        final boolean promise;
        /** An answer's sequence number; 0 if it has none. */
        final long seq;

        private Reach(long kind, long outage, boolean reaches, boolean promise, long seq) {
            this.kind = kind;
            this.outage = outage;
            this.reaches = reaches;
            this.promise = promise;
            this.seq = seq;
        }

        static long[] question(long outage) {
            return new long[] {QUESTION, outage, 1};
        }

        static long[] answer(long outage, boolean reaches, long seq) {
            return new long[] {ANSWER, outage, seq << 2 | 2 | (reaches ? 1 : 0)};
        }

        static long[] legacyAnswer(long outage, boolean reaches) {
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

            if (m[0] == ANSWER && (m[2] & 2) != 0)
                return new Reach(ANSWER, m[1], (m[2] & 1) == 1, true, m[2] >>> 2);

            if (m[0] == QUESTION)
                return new Reach(QUESTION, m[1], false, m[2] == 1, 0);

            return m[0] == ANSWER || m[0] == LEAVING ? new Reach(m[0], m[1], m[2] == 1, false, 0) : null;
        }
    }
}
