package io.zkion.discovery.engine;

import io.zkion.discovery.engine.ReachTally.Verdict;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteBiPredicate;
import org.apache.ignite.spi.IgniteSpiContext;

/**
 * The outage rule's messages over Ignite's communication (which does not need ZooKeeper): a server that lost
 * ZooKeeper reports so to the tallier (the oldest server), which answers with its verdict ({@link ReachTally}); a
 * server back with ZooKeeper says so; a stopping server says so to every other. It is how a node that lost ZooKeeper
 * tells an outage of the ensemble, which every node sees, from its own isolation, which the others do not see.
 * <p>
 * Each send is on a thread of its own: a send to a node that does not answer blocks for Ignite's connect timeout, and
 * must hold up neither the others nor the caller.
 */
final class PeerProbe implements AutoCloseable {
    /** The communication topic of the questions and answers. */
    static final String TOPIC = "io.zkion.discovery.zk-reach";

    /** What the probe hears. */
    interface Listener {
        /** A server reported its reach in its outage {@code outage} (this node tallies). */
        void reported(UUID from, long outage, boolean reaches, long seq);

        /** The tallier's verdict on this node's outage {@code outage}, as of its topology version {@code topVer}. */
        void verdict(UUID from, long outage, Verdict v, long topVer, UUID reaching);

        /** {@code from} said it is stopping. */
        void leaving(UUID from);
    }

    private final BooleanSupplier reachesZk;
    private final Listener listener;
    private final IgniteLogger log;
    private final IgniteBiPredicate<UUID, Object> receiver = this::received;
    private volatile IgniteSpiContext ctx;
    /** Numbers this node's reports; taken before the reach is read, so a later number never carries older news. */
    private final AtomicLong reportSeq = new AtomicLong();
    private final ExecutorService sends = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "zkion-outage-ask");

        t.setDaemon(true);

        return t;
    });
    /** Peers a message is still being sent to: a report is not queued behind another to the same node. */
    private final Set<UUID> sending = ConcurrentHashMap.newKeySet();

    PeerProbe(BooleanSupplier reachesZk, Listener listener, IgniteLogger log) {
        this.reachesZk = reachesZk;
        this.listener = listener;
        this.log = log;
    }

    /** Answers and hears answers through {@code ctx}: Ignite's real context, once the kernal has started. */
    void listen(IgniteSpiContext ctx) {
        close();
        this.ctx = ctx;
        ctx.addLocalMessageListener(TOPIC, receiver);
    }

    /** Reports this node's reach now, in its outage {@code outage}, to {@code tallier}. */
    void report(ClusterNode tallier, long outage) {
        long seq = reportSeq.incrementAndGet();

        send(tallier, Wire.report(outage, reachesZk.getAsBoolean(), seq), true);
    }

    /** Sends {@code to} the verdict on its outage {@code outage}. */
    void sendVerdict(UUID to, long outage, Verdict v, long topVer, UUID reaching) {
        IgniteSpiContext c = ctx;
        ClusterNode n = c == null ? null : c.node(to);

        if (n != null)
            send(n, Wire.verdict(outage, v, topVer, reaching), false);
    }

    /**
     * Tells each of {@code peers} that this node is stopping, while Ignite's communication still carries messages
     * (it stops taking them in before discovery stops): from then on this node reports nothing, and a tallier that
     * waited for its report through an outage would segment every server for nothing.
     */
    void announceLeaving(Collection<ClusterNode> peers) {
        for (ClusterNode n : peers)
            send(n, Wire.leaving(), false);
    }

    /** @param once One such message in flight per peer: a peer still being sent one is skipped. */
    private void send(ClusterNode n, long[] msg, boolean once) {
        IgniteSpiContext c = ctx;

        if (c == null || once && !sending.add(n.id()))
            return;

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

    private boolean received(UUID from, Object msg) {
        long[] m = msg instanceof long[] ? (long[])msg : null;

        if (m == null || m.length < 3)
            return true;

        if (m[0] == Wire.REPORT && m.length == 3)
            listener.reported(from, m[1], (m[2] & 1) == 1, m[2] >>> 1);
        else if (m[0] == Wire.VERDICT && m.length == 6)
            listener.verdict(from, m[1], Wire.verdictOf(m[2]), m[3], m[2] == 2 ? new UUID(m[4], m[5]) : null);
        else if (m[0] == Wire.LEAVING)
            listener.leaving(from);
        else if (m[0] == Wire.QUESTION && m.length == 3)
            answerQuestion(from, m[1]);

        return true; // Keep listening.
    }

    /** A server of an earlier 0.2.0 build asks every other whether it reaches ZooKeeper: it gets the answer it reads. */
    private void answerQuestion(UUID from, long outage) {
        IgniteSpiContext c = ctx;
        ClusterNode asker = c == null ? null : c.node(from);

        if (asker != null)
            send(asker, new long[] {Wire.ANSWER, outage, reachesZk.getAsBoolean() ? 1 : 0}, false);
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
     * The messages, each a {@code long[]}: Ignite's binary marshaller sends one as it is, where a class of ours would
     * first need its type registered through discovery, which is what is out.
     * <ul>
     * <li>REPORT {kind, the reporter's outage, its sequence number << 1 | 1 if it reaches ZooKeeper};</li>
     * <li>VERDICT {kind, that outage, 0 undecided, 1 all lost, 2 one reaches, the tallier's topology version, and
     * the id of the server that reaches, as two longs};</li>
     * <li>LEAVING {kind, 0, 0};</li>
     * <li>QUESTION and ANSWER {kind, outage, 1 if it reaches}: an earlier 0.2.0 build's, answered, never asked.</li>
     * </ul>
     */
    static final class Wire {
        static final long QUESTION = 0x5a4b5251L;
        static final long ANSWER = 0x5a4b5241L;
        static final long LEAVING = 0x5a4b524cL;
        static final long REPORT = 0x5a4b5250L;
        static final long VERDICT = 0x5a4b5256L;

        private Wire() {
        }

        static long[] report(long outage, boolean reaches, long seq) {
            return new long[] {REPORT, outage, seq << 1 | (reaches ? 1 : 0)};
        }

        static long[] verdict(long outage, Verdict v, long topVer, UUID reaching) {
            UUID r = v == Verdict.ONE_REACHES && reaching != null ? reaching : new UUID(0, 0);

            return new long[] {VERDICT, outage, v.ordinal(), topVer, r.getMostSignificantBits(), r.getLeastSignificantBits()};
        }

        static long[] leaving() {
            return new long[] {LEAVING, 0, 0};
        }

        static Verdict verdictOf(long code) {
            return code >= 0 && code < Verdict.values().length ? Verdict.values()[(int)code] : Verdict.UNDECIDED;
        }
    }
}
