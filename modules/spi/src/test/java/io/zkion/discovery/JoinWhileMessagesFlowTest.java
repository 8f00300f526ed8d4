package io.zkion.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.ignite.Ignite;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Members append their custom messages to the log themselves. A join must still sit at one point of the
 * order on every node: the coordinator collects the joiner's data with nothing delivered between that and
 * the join event, and the joiner then sees exactly the rest of the coordinator's order.
 */
public class JoinWhileMessagesFlowTest extends ZkIonTestSupport {
    /** What each node's SPI hands to Ignite, by node name, in order: pings, joins, and collects for joiners. */
    private final Map<String, List<String>> trace = new ConcurrentHashMap<>();

    @Override protected IgniteConfiguration config(String name, boolean client) {
        List<String> t = Collections.synchronizedList(new ArrayList<>());

        trace.put(name, t);

        return super.config(name, client).setDiscoverySpi(configured(new RecordingSpi(t)));
    }

    @Test(timeout = 240_000) public void joinsSitAtOnePointOfTheOrder() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        AtomicBoolean sending = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Integer>> senders = new ArrayList<>();

        for (Ignite n : List.of(s1, s2)) {
            senders.add(pool.submit(() -> {
                int i = 0;

                while (sending.get()) {
                    ((IgniteEx)n).context().discovery().sendCustomEvent(new CustomMessageTest.Ping(n.name() + "-" + i++));
                    Thread.sleep(2);
                }

                return i;
            }));
        }

        start("s3");
        start("s4");
        startClient("c1");

        sending.set(false);

        int sent = 0;

        for (Future<Integer> f : senders)
            sent += f.get();

        pool.shutdown();

        int total = sent;

        assertTrue("pings were sent while nodes joined: " + total, total > 20);

        await("s1 delivered every ping", 60_000, () -> count(trace.get("s1"), "ping ") == total);

        List<String> crd = withoutCollects(trace.get("s1"));

        // On the coordinator, a joiner's data is collected right before its join event: nothing in between.
        List<String> onCrd = new ArrayList<>(trace.get("s1"));
        int collects = 0;

        for (int i = 0; i < onCrd.size(); i++) {
            if (onCrd.get(i).startsWith("collect ")) {
                String joiner = onCrd.get(i).substring("collect ".length());

                assertEquals("after " + onCrd.get(i), "joined " + joiner, onCrd.get(i + 1));
                collects++;
            }
        }

        assertEquals("the coordinator collected data for s2, s3, s4 and c1", 4, collects);

        for (String name : List.of("s2", "s3", "s4", "c1")) {
            Ignite n = nodes.stream().filter(x -> x.name().equals(name)).findFirst().get();
            String own = "joined " + n.cluster().localNode().id();
            int from = crd.indexOf(own);

            assertTrue(name + " joined in the coordinator's order", from > 0);

            List<String> expected = crd.subList(from, crd.size());

            await(name + " caught up", 60_000, () -> trace.get(name).size() >= expected.size());

            // The joiner sees its join, then exactly what the coordinator saw after it, in the same order.
            assertEquals(name, expected, withoutCollects(trace.get(name)));
        }

        assertTrue("pings landed between the joins: " + crd, count(crd.subList(crd.indexOf(
            "joined " + nodes.get(2).cluster().localNode().id()), crd.size()), "ping ") > 0);
    }

    private static long count(List<String> t, String prefix) {
        synchronized (t) {
            return t.stream().filter(s -> s.startsWith(prefix)).count();
        }
    }

    private static List<String> withoutCollects(List<String> t) {
        List<String> out = new ArrayList<>();

        synchronized (t) {
            for (String s : t) {
                if (!s.startsWith("collect "))
                    out.add(s);
            }
        }

        return out;
    }

    /** Records what the SPI hands to Ignite: join events, pings, and data collections for joining nodes. */
    static final class RecordingSpi extends ZkIonDiscoverySpi {
        private final List<String> trace;

        RecordingSpi(List<String> trace) {
            this.trace = trace;
        }

        @Override public void setListener(DiscoverySpiListener lsnr) {
            super.setListener(lsnr == null ? null : new DiscoverySpiListener() {
                @Override public void onLocalNodeInitialized(org.apache.ignite.cluster.ClusterNode locNode) {
                    lsnr.onLocalNodeInitialized(locNode);
                }

                @Override public IgniteFuture<?> onDiscovery(DiscoveryNotification n) {
                    if (n.type() == EventType.EVT_NODE_JOINED)
                        trace.add("joined " + n.getNode().id());
                    else if (n.getCustomMsgData() instanceof CustomMessageWrapper
                        && ((CustomMessageWrapper)n.getCustomMsgData()).delegate() instanceof CustomMessageTest.Ping)
                        trace.add("ping " + ((CustomMessageTest.Ping)((CustomMessageWrapper)n.getCustomMsgData()).delegate()).tag);

                    return lsnr.onDiscovery(n);
                }
            });
        }

        @Override public void setDataExchange(DiscoverySpiDataExchange exchange) {
            super.setDataExchange(exchange == null ? null : new DiscoverySpiDataExchange() {
                @Override public DiscoveryDataBag collect(DiscoveryDataBag bag) {
                    if (getLocalNode() != null && !bag.joiningNodeId().equals(getLocalNode().id()))
                        trace.add("collect " + bag.joiningNodeId());

                    return exchange.collect(bag);
                }

                @Override public void onExchange(DiscoveryDataBag bag) {
                    exchange.onExchange(bag);
                }
            });
        }
    }
}
