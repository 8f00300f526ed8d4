package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.DiscoCache;
import org.apache.ignite.internal.managers.discovery.DiscoveryCustomMessage;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.apache.ignite.internal.processors.affinity.AffinityTopologyVersion;
import org.apache.ignite.lang.IgniteUuid;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Custom messages: one total order, exactly once per node, acks after the originals, the mutable path. */
public class CustomMessageTest extends ZkIonTestSupport {
    private static final int PER_NODE = 40;

    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    @Test(timeout = 240_000) public void totalOrderExactlyOnceAndAcksAfterOriginals() throws Exception {
        List<Ignite> all = List.of(start("s1"), start("s2"), start("s3"), startClient("c1"));

        for (Ignite n : all)
            listen(n);

        ExecutorService pool = Executors.newFixedThreadPool(all.size());
        List<Future<?>> futs = new ArrayList<>();

        for (Ignite n : all) {
            futs.add(pool.submit(() -> {
                for (int i = 0; i < PER_NODE; i++)
                    ((IgniteEx)n).context().discovery().sendCustomEvent(new Ping(n.name() + "-" + i));

                return null;
            }));
        }

        for (Future<?> f : futs)
            f.get();

        pool.shutdown();

        int total = PER_NODE * all.size();

        for (Ignite n : all)
            await(n.name() + " got every ping and ack", 60_000, () -> seen.get(n.name()).size() == 2 * total);

        List<String> pingsOnFirst = pings(all.get(0).name());

        assertEquals(total, pingsOnFirst.size());
        assertEquals("Each ping exactly once", total, pingsOnFirst.stream().distinct().count());

        for (Ignite n : all) {
            List<String> s = seen.get(n.name());

            // The same order of pings everywhere.
            assertEquals(n.name(), pingsOnFirst, pings(n.name()));

            // Each ack after its original, on every node.
            for (String p : pingsOnFirst) {
                int ping = s.indexOf("ping " + p);
                int ack = s.indexOf("ack " + p);

                assertTrue(n.name() + ": " + p + " ping@" + ping + " ack@" + ack, ping >= 0 && ack > ping);
            }
        }
    }

    /** A mutable message the coordinator stops: only it sees the message; everyone sees its mutated ack. */
    @Test(timeout = 120_000) public void mutableMessageIsStoppedOnTheCoordinator() throws Exception {
        List<Ignite> all = List.of(start("s1"), start("s2"), startClient("c1"));
        Map<String, List<String>> got = new ConcurrentHashMap<>();

        for (Ignite n : all) {
            List<String> l = new CopyOnWriteArrayList<>();

            got.put(n.name(), l);

            ((IgniteEx)n).context().discovery().setCustomEventListener(Mutable.class, (topVer, snd, msg) -> {
                l.add("mutable " + msg.value);
                msg.value = "changed by " + n.name();
                msg.stop = true;
            });
            ((IgniteEx)n).context().discovery().setCustomEventListener(MutableAck.class,
                (topVer, snd, msg) -> l.add("ack " + msg.value));
        }

        ((IgniteEx)all.get(2)).context().discovery().sendCustomEvent(new Mutable());

        for (Ignite n : all)
            await(n.name() + " got the ack", 30_000, () -> got.get(n.name()).stream().anyMatch(s -> s.startsWith("ack")));

        assertEquals(List.of("mutable original", "ack changed by s1"), got.get("s1"));
        assertEquals(List.of("ack changed by s1"), got.get("s2"));
        assertEquals(List.of("ack changed by s1"), got.get("c1"));
    }

    /**
     * A send that reached the log twice, as a connection lost after ZooKeeper applied an append makes Curator send
     * it again (played here by a bare client writing the same entry twice): every node delivers it once, and its ack
     * comes once.
     */
    @Test(timeout = 120_000) public void aSendWrittenTwiceIsDeliveredOnce() throws Exception {
        List<Ignite> all = List.of(start("s1"), start("s2"), startClient("c1"));

        for (Ignite n : all)
            listen(n);

        Ignite sender = all.get(1);
        byte[] entry = logEntryOf(sender, new Ping("twice"));

        for (int i = 0; i < 2; i++)
            append(entry);

        ((IgniteEx)sender).context().discovery().sendCustomEvent(new Ping("after"));

        for (Ignite n : all)
            await(n.name() + " got both acks", 30_000, () -> seen.get(n.name()).containsAll(List.of("ack twice", "ack after")));

        for (Ignite n : all) {
            assertEquals(n.name(), List.of("twice", "after"), pings(n.name()));
            assertEquals(n.name(), 1, seen.get(n.name()).stream().filter("ack twice"::equals).count());
        }
    }

    /**
     * A send replayed by Curator after a join: its first copy landed before, its second after (in production, the
     * replayed append failed at the gate the join closed, and went through custom/). The joiner never saw the first;
     * it skips the second as the others do, because the coordinator handed it the ids it delivered lately.
     */
    @Test(timeout = 120_000) public void aSendReplayedAcrossAJoinIsDeliveredOnceByTheJoiner() throws Exception {
        List<Ignite> all = new ArrayList<>(List.of(start("s1"), start("s2")));

        for (Ignite n : all)
            listen(n);

        Ignite sender = all.get(1);
        byte[] entry = logEntryOf(sender, new Ping("replayed"));

        append(entry);

        for (Ignite n : all)
            await(n.name() + " got the first copy", 30_000, () -> seen.get(n.name()).contains("ack replayed"));

        Ignite joiner = start("s3");

        listen(joiner);
        all.add(joiner);
        append(entry);
        ((IgniteEx)sender).context().discovery().sendCustomEvent(new Ping("after"));

        for (Ignite n : all)
            await(n.name() + " got the later ack", 30_000, () -> seen.get(n.name()).contains("ack after"));

        assertEquals(List.of("replayed", "after"), pings("s1"));
        assertEquals(List.of("replayed", "after"), pings("s2"));
        assertEquals("the joiner skips the copy", List.of("after"), pings("s3"));
    }

    /** @return A log entry of the cluster's format holding {@code msg} as sent by {@code sender}. */
    private byte[] logEntryOf(Ignite sender, TestMessage m) throws Exception {
        io.zkion.discovery.codec.zip.StreamingZip zip = io.zkion.discovery.codec.zip.StreamingZip.defaults();
        byte[] msg = new io.zkion.discovery.internal.ObjectCodec(
            ((IgniteEx)sender).context().marshallerContext().jdkMarshaller(), zip.stored(), getClass().getClassLoader())
            .marshal(new org.apache.ignite.internal.managers.discovery.CustomMessageWrapper(m));

        try (org.apache.curator.framework.CuratorFramework zkc = bareClient()) {
            java.util.UUID cluster = new io.zkion.discovery.codec.msg.ControlCodec(zip)
                .decodeState(zkc.getData().forPath(root + "/state"), "state").clusterId;

            return new io.zkion.discovery.codec.ion.IonEventFormat(zip, io.zkion.discovery.codec.event.FormatId.ION_2)
                .encode(new io.zkion.discovery.codec.event.EventBatch(cluster, 0, 0, List.of(
                    io.zkion.discovery.codec.event.DiscoveryEvent.custom(0, 0, sender.cluster().localNode().id(), msg))));
        }
    }

    /** Appends {@code entry} to the log as a bare client. */
    private void append(byte[] entry) throws Exception {
        try (org.apache.curator.framework.CuratorFramework zkc = bareClient()) {
            zkc.create().withMode(org.apache.zookeeper.CreateMode.PERSISTENT_SEQUENTIAL).forPath(root + "/log/e-", entry);
        }
    }

    private org.apache.curator.framework.CuratorFramework bareClient() {
        org.apache.curator.framework.CuratorFramework zkc = org.apache.curator.framework.CuratorFrameworkFactory
            .newClient(zk.getConnectString(), new org.apache.curator.retry.RetryOneTime(100));

        zkc.start();

        return zkc;
    }

    private void listen(Ignite n) {
        seen.put(n.name(), pingsAndAcks(n));
    }

    /** @return What {@code n} delivers of pings and their acks, as "ping tag" and "ack tag", in its order. */
    static List<String> pingsAndAcks(Ignite n) {
        List<String> l = new CopyOnWriteArrayList<>();
        GridDiscoveryManager disco = ((IgniteEx)n).context().discovery();

        disco.setCustomEventListener(Ping.class, (topVer, snd, msg) -> l.add("ping " + msg.tag));
        disco.setCustomEventListener(Pong.class, (topVer, snd, msg) -> l.add("ack " + msg.tag));

        return l;
    }

    private List<String> pings(String node) {
        List<String> out = new ArrayList<>();

        for (String s : seen.get(node)) {
            if (s.startsWith("ping "))
                out.add(s.substring(5));
        }

        return out;
    }

    /** A message whose ack is a {@link Pong}. */
    static final class Ping extends TestMessage {
        private static final long serialVersionUID = 1L;

        final String tag;

        Ping(String tag) {
            this.tag = tag;
        }

        @Override public DiscoveryCustomMessage ackMessage() {
            return new Pong(tag);
        }
    }

    static final class Pong extends TestMessage {
        private static final long serialVersionUID = 1L;

        final String tag;

        Pong(String tag) {
            this.tag = tag;
        }
    }

    static final class Mutable extends TestMessage {
        private static final long serialVersionUID = 1L;

        volatile String value = "original";
        volatile boolean stop;

        @Override public boolean isMutable() {
            return true;
        }

        @Override public boolean stopProcess() {
            return stop;
        }

        @Override public DiscoveryCustomMessage ackMessage() {
            return new MutableAck(value);
        }
    }

    static final class MutableAck extends TestMessage {
        private static final long serialVersionUID = 1L;

        final String value;

        MutableAck(String value) {
            this.value = value;
        }
    }

    /** A message of the tests, never mutable, with no ack unless a subclass gives one. */
    public abstract static class TestMessage implements DiscoveryCustomMessage {
        private static final long serialVersionUID = 1L;

        private final IgniteUuid id = IgniteUuid.randomUuid();

        @Override public IgniteUuid id() {
            return id;
        }

        @Override public DiscoveryCustomMessage ackMessage() {
            return null;
        }

        @Override public boolean isMutable() {
            return false;
        }

        @Override public DiscoCache createDiscoCache(GridDiscoveryManager mgr, AffinityTopologyVersion topVer,
            DiscoCache discoCache) {
            throw new UnsupportedOperationException();
        }
    }
}
