package io.zkion.discovery.engine;

import io.zkion.discovery.engine.ReachTally.Verdict;
import java.lang.reflect.Proxy;
import java.util.Collections;
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
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The outage rule's messages between a server A and the tallier B, over a stand-in for Ignite's communication: a
 * report and its verdict, in order by the report's number; a stopping node's notice; the question of an earlier build,
 * answered as that build reads it.
 */
public class PeerProbeTest {
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    private final Map<UUID, IgniteBiPredicate<UUID, Object>> listeners = new ConcurrentHashMap<>();
    private final Map<UUID, BlockingQueue<Object>> delivered = new ConcurrentHashMap<>();
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private final AtomicBoolean aReaches = new AtomicBoolean();

    private final PeerProbe a = probe(A, aReaches::get);
    private final PeerProbe b = probe(B, () -> true);

    @After public void close() {
        a.shutdown();
        b.shutdown();
    }

    @Test public void aReportAndItsVerdict() throws Exception {
        a.report(node(B), 3);

        String r1 = heard.poll(5, TimeUnit.SECONDS);

        assertTrue(r1, r1.startsWith("B reported: " + A + " outage=3 reaches=false seq="));

        aReaches.set(true);
        Thread.sleep(50); // One report in flight per peer: the first is out.
        a.report(node(B), 3);

        String r2 = heard.poll(5, TimeUnit.SECONDS);

        assertTrue(r2, r2.startsWith("B reported: " + A + " outage=3 reaches=true seq="));
        assertTrue("numbered in order", seq(r2) > seq(r1));

        b.sendVerdict(A, 3, Verdict.ALL_LOST, 12, null);
        assertEquals("A heard: outage=3 ALL_LOST topVer=12 reaching=null", heard.poll(5, TimeUnit.SECONDS));

        UUID c = new UUID(5, 6);

        b.sendVerdict(A, 4, Verdict.ONE_REACHES, 13, c);
        assertEquals("A heard: outage=4 ONE_REACHES topVer=13 reaching=" + c, heard.poll(5, TimeUnit.SECONDS));
    }

    @Test public void aStoppingNodeIsHeard() throws Exception {
        a.announceLeaving(Collections.singletonList(node(B)));
        assertEquals("B leaving: " + A, heard.poll(5, TimeUnit.SECONDS));
    }

    @Test public void anEarlierBuildsQuestionIsAnsweredAsItReadsIt() throws Exception {
        listeners.get(B).apply(A, new long[] {PeerProbe.Wire.QUESTION, 7, 0});

        Object ans = delivered.computeIfAbsent(A, k -> new LinkedBlockingQueue<>()).poll(5, TimeUnit.SECONDS);

        assertNotNull(ans);
        assertArrayEquals(new long[] {PeerProbe.Wire.ANSWER, 7, 1}, (long[])ans);
    }

    @Test public void theWireFormsReadBack() {
        long[] r = PeerProbe.Wire.report(5, true, 1L << 40);

        assertEquals(1L << 40, r[2] >>> 1);
        assertEquals(1, r[2] & 1);
        assertEquals(Verdict.ONE_REACHES, PeerProbe.Wire.verdictOf(PeerProbe.Wire.verdict(1, Verdict.ONE_REACHES, 2, A)[2]));
        assertEquals("an unknown code is no verdict", Verdict.UNDECIDED, PeerProbe.Wire.verdictOf(9));
    }

    private static long seq(String line) {
        return Long.parseLong(line.substring(line.indexOf("seq=") + 4));
    }

    private PeerProbe probe(UUID self, java.util.function.BooleanSupplier reaches) {
        String name = self.equals(A) ? "A" : "B";
        PeerProbe p = new PeerProbe(reaches, new PeerProbe.Listener() {
            @Override public void reported(UUID from, long outage, boolean r, long seq) {
                heard.add(name + " reported: " + from + " outage=" + outage + " reaches=" + r + " seq=" + seq);
            }

            @Override public void verdict(UUID from, long outage, Verdict v, long topVer, UUID reaching) {
                heard.add(name + " heard: outage=" + outage + " " + v + " topVer=" + topVer + " reaching=" + reaching);
            }

            @Override public void leaving(UUID from) {
                heard.add(name + " leaving: " + from);
            }
        }, new NullLogger());

        p.listen((IgniteSpiContext)Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {IgniteSpiContext.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "addLocalMessageListener":
                        listeners.put(self, (IgniteBiPredicate<UUID, Object>)args[1]);
                        return null;

                    case "send": {
                        UUID to = ((ClusterNode)args[0]).id();

                        delivered.computeIfAbsent(to, k -> new LinkedBlockingQueue<>()).add(args[1]);

                        IgniteBiPredicate<UUID, Object> l = listeners.get(to);

                        if (l != null)
                            l.apply(self, args[1]);

                        return null;
                    }

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
}
