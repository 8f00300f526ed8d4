package io.zkion.discovery.engine;

import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteBiPredicate;
import org.apache.ignite.logger.NullLogger;
import org.apache.ignite.spi.IgniteSpiContext;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * The probe's messages between two nodes, A and B, over a stand-in for Ignite's communication that holds each message
 * until the test delivers it, in any order: a peer is asked once per outage, pushes its reach when it changes, and a
 * late answer never overrides a newer one. Without the promise (a release before it), a peer is asked every tick.
 */
public class PeerProbeTest {
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    /** Messages sent and not yet delivered, by receiver. */
    private final Map<UUID, BlockingQueue<Sent>> inFlight = new ConcurrentHashMap<>();
    private final Map<UUID, IgniteBiPredicate<UUID, Object>> listeners = new ConcurrentHashMap<>();
    private final AtomicBoolean bReaches = new AtomicBoolean();
    /** What A heard, as "peer outage reaches", in order. */
    private final BlockingQueue<String> heardByA = new LinkedBlockingQueue<>();

    private final PeerProbe a = probe(A, () -> false, (peer, outage, reaches) -> heardByA.add(peer.getLeastSignificantBits()
        + " " + outage + " " + reaches));
    private final PeerProbe b = probe(B, bReaches::get, (peer, outage, reaches) -> { });

    @After public void close() {
        a.shutdown();
        b.shutdown();
    }

    @Test public void aPeerThatPromisedIsNotAskedAgainInTheSameOutage() throws Exception {
        List<ClusterNode> peers = new java.util.ArrayList<>();

        for (int i = 2; i < 12; i++)
            peers.add(node(new UUID(0, i)));

        a.ask(1, peers);

        for (ClusterNode n : peers) {
            assertNotNull("asked " + n.id(), next(n.id(), 5_000));
            listeners.get(A).apply(n.id(), PeerProbe.Reach.answer(1, false, 1)); // Answered, with the promise.
        }

        a.ask(1, peers);
        assertEquals("of 10 peers that promised, only a few are asked again", PeerProbe.RECHECKED, sentTo(peers, 300));

        a.ask(2, peers);
        assertEquals("a new outage asks every one anew", 10, sentTo(peers, 1_000));
    }

    @Test public void aPeerPushesItsReachWhenItChanges() throws Exception {
        a.ask(1, peers(B));
        deliver(B);
        deliver(A);
        assertEquals("2 1 false", heardByA.poll(5, TimeUnit.SECONDS));

        bReaches.set(true);
        b.reachChanged();
        deliver(A);
        assertEquals("pushed without a question", "2 1 true", heardByA.poll(5, TimeUnit.SECONDS));

        // Back with ZooKeeper, B forgot its askers: A's next outage asks anew.
        bReaches.set(false);
        b.reachChanged();
        assertNull(next(A, 300));
    }

    @Test public void aLateAnswerDoesNotOverrideANewerOne() throws Exception {
        a.ask(1, peers(B));
        deliver(B);

        Sent reply = next(A, 5_000); // B's reply: does not reach ZooKeeper. Held back.

        bReaches.set(true);
        b.reachChanged();

        Sent push = next(A, 5_000); // Then B reaches it, and says so.

        push.deliver();
        reply.deliver();

        assertEquals("2 1 true", heardByA.poll(5, TimeUnit.SECONDS));
        assertNull("the older answer, arriving last, is dropped", heardByA.poll(300, TimeUnit.MILLISECONDS));
    }

    @Test public void aPeerWithoutThePromiseIsAskedOnEveryTick() throws Exception {
        a.ask(1, peers(B));
        next(B, 5_000); // The question, answered by a release before the promise:
        listeners.get(A).apply(B, PeerProbe.Reach.legacyAnswer(1, false));
        assertEquals("2 1 false", heardByA.poll(5, TimeUnit.SECONDS));

        a.ask(1, peers(B));
        assertNotNull("asked again", next(B, 5_000));
    }

    @Test public void anAskerWithoutThePromiseGetsTheAnswerItReads() throws Exception {
        Sent[] got = new Sent[1];

        bReaches.set(true);
        listeners.get(B).apply(A, new long[] {0x5a4b5251L, 7, 0}); // A question of a release before the promise.
        got[0] = next(A, 5_000);

        assertArrayEquals(new long[] {0x5a4b5241L, 7, 1}, (long[])got[0].msg);

        bReaches.set(false);
        b.reachChanged();
        assertNull("nothing pushed to it", next(A, 300));
    }

    @Test public void theWireFormsReadBack() {
        PeerProbe.Reach q = PeerProbe.Reach.of(PeerProbe.Reach.question(5));
        PeerProbe.Reach ans = PeerProbe.Reach.of(PeerProbe.Reach.answer(5, true, 1L << 40));
        PeerProbe.Reach old = PeerProbe.Reach.of(PeerProbe.Reach.legacyAnswer(5, true));

        assertTrue(q.promise);
        assertTrue(ans.promise && ans.reaches && ans.seq == 1L << 40 && ans.outage == 5);
        assertTrue(!old.promise && old.reaches && old.seq == 0);
        assertFalse(PeerProbe.Reach.of(PeerProbe.Reach.answer(5, false, 3)).reaches);
        assertNull(PeerProbe.Reach.of(new long[] {1, 2}));
    }

    /** @return How many of {@code peers} got a message, waiting up to {@code ms} for each. */
    private int sentTo(List<ClusterNode> peers, long ms) throws InterruptedException {
        int n = 0;

        for (ClusterNode p : peers)
            n += next(p.id(), ms) != null ? 1 : 0;

        return n;
    }

    private void deliver(UUID to) throws InterruptedException {
        Sent s = next(to, 5_000);

        assertNotNull("nothing sent to " + to, s);
        s.deliver();
    }

    private Sent next(UUID to, long ms) throws InterruptedException {
        return inFlight.computeIfAbsent(to, k -> new LinkedBlockingQueue<>()).poll(ms, TimeUnit.MILLISECONDS);
    }

    private List<ClusterNode> peers(UUID id) {
        return Collections.singletonList(node(id));
    }

    private PeerProbe probe(UUID self, java.util.function.BooleanSupplier reaches, PeerProbe.Answers answers) {
        PeerProbe p = new PeerProbe(reaches, answers, id -> { }, new NullLogger());

        p.listen((IgniteSpiContext)Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {IgniteSpiContext.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "addLocalMessageListener":
                        listeners.put(self, (IgniteBiPredicate<UUID, Object>)args[1]);
                        return null;

                    case "send":
                        UUID to = ((ClusterNode)args[0]).id();

                        inFlight.computeIfAbsent(to, k -> new LinkedBlockingQueue<>()).add(new Sent(self, to, args[1]));
                        return null;

                    case "node":
                        return node((UUID)args[0]);

                    default:
                        return null;
                }
            }));

        return p;
    }

    private static ClusterNode node(UUID id) {
        return (ClusterNode)Proxy.newProxyInstance(PeerProbeTest.class.getClassLoader(), new Class<?>[] {ClusterNode.class},
            (proxy, m, args) -> m.getName().equals("id") ? id : m.getName().equals("hashCode") ? id.hashCode() : null);
    }

    /** A message on its way. */
    private final class Sent {
        final UUID from;
        final UUID to;
        final Object msg;

        Sent(UUID from, UUID to, Object msg) {
            this.from = from;
            this.to = to;
            this.msg = msg;
        }

        void deliver() {
            listeners.get(to).apply(from, msg);
        }
    }
}
