package io.zkion.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.zkion.discovery.internal.AckPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.junit.After;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

/**
 * Acks of entries nobody awaits wait ({@link AckPolicy}, issue 20): a stream of plain messages costs no member an ack
 * write, a message whose ack Ignite awaits is acked by every member and its ack delivered, a log that stands
 * still is acked and trimmed, and a joiner acks at once.
 */
public class LazyAckTest extends ZkIonTestSupport {
    @After public void idleAsUsual() {
        AckPolicy.idleMsForTest(0);
    }

    @Test(timeout = 120_000) public void plainMessagesCostNoAckAndAnAwaitedOneIsAckedByAll() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        Ignite c1 = startClient("c1");
        List<List<String>> seen = new ArrayList<>();

        for (Ignite n : List.of(s1, s2, c1))
            seen.add(notesAndPings(n));

        try (CuratorFramework zkc = client()) {
            awaitTrimmed(zkc, "the joins");

            // From here no member acks a log that merely stood still: only what the rule says is due.
            AckPolicy.idleMsForTest(600_000);

            Map<String, Integer> before = ackVersions(zkc);

            for (int i = 0; i < 50; i++)
                ((IgniteEx)s2).context().discovery().sendCustomEvent(new Note("n" + i));

            for (List<String> l : seen)
                await("every node got the 50 notes", 30_000, () -> l.contains("note n49"));

            // Nothing is due: under the older rule every member acked within 500 ms of the last note.
            Thread.sleep(2_000);

            assertEquals("A member acked plain messages nobody awaits", before, ackVersions(zkc));
            assertTrue("The notes' entries were trimmed without acks", children(zkc, root + "/log") > 0);

            ((IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p"));

            for (List<String> l : seen)
                await("every node got the ping's ack", 30_000, () -> l.contains("ack p"));

            Map<String, Integer> after = ackVersions(zkc);

            for (String node : before.keySet()) {
                if (!node.equals(s1.cluster().localNode().id().toString())) // The coordinator, which need not.
                    assertNotEquals("The member " + node + " did not ack the ping", before.get(node), after.get(node));
            }

            // Trimmed with the ping: the notes before it. What stays is the entry of the ping's ack, which nobody
            // awaits, until the log has stood still for an idle period.
            await("the notes and the ping trimmed", 30_000, () -> children(zkc, root + "/log") <= 1);

            AckPolicy.idleMsForTest(0);

            awaitTrimmed(zkc, "the ping's ack");
        }
    }

    /**
     * A node that joins after a message whose ack Ignite awaits holds that ack up until it acks itself: the coordinator
     * set its ack below every event. So a joiner acks at once. This test also passes without that: Ignite's own
     * messages after a join, which await acks, have every member ack. It guards the outcome, not the cause.
     */
    @Test(timeout = 120_000) public void aJoinerDoesNotHoldUpAnAckIgniteAwaits() throws Exception {
        Ignite s1 = start("s1");
        Ignite s2 = start("s2");
        List<String> seen = notesAndPings(s2);

        AckPolicy.idleMsForTest(600_000);
        spiOf(s1).engine().coordinatorForTest().holdTrimForTest(true);

        ((IgniteEx)s2).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p"));
        await("s2 got the ping", 30_000, () -> seen.contains("ping p"));

        start("s3"); // Its ack is below the ping's until it writes one.

        spiOf(s1).engine().coordinatorForTest().holdTrimForTest(false);

        await("s2 got the ping's ack", 30_000, () -> seen.contains("ack p"));
    }

    private void awaitTrimmed(CuratorFramework zkc, String what) throws InterruptedException {
        // Idle acks come within two idle periods; the trim follows at once.
        await("the log trimmed after " + what, 4 * AckPolicy.IDLE_MS + 10_000, () -> children(zkc, root + "/log") == 0);
    }

    /** @return Each alive znode's data version, by node id: it moves with every ack the node writes. */
    private Map<String, Integer> ackVersions(CuratorFramework zkc) throws Exception {
        Map<String, Integer> out = new TreeMap<>();

        for (String child : zkc.getChildren().forPath(root + "/alive"))
            out.put(child, zkc.checkExists().forPath(root + "/alive/" + child).getVersion());

        return out;
    }

    private CuratorFramework client() {
        CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));

        zkc.start();

        return zkc;
    }

    private static int children(CuratorFramework zkc, String path) {
        try {
            return zkc.getChildren().forPath(path).size();
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** @return What {@code n} delivers of notes, pings and pings' acks, in its order. */
    private static List<String> notesAndPings(Ignite n) {
        List<String> l = CustomMessageTest.pingsAndAcks(n);

        ((IgniteEx)n).context().discovery().setCustomEventListener(Note.class, (topVer, snd, msg) -> l.add("note " + msg.tag));

        return l;
    }

    /** A plain message: nobody awaits its ack. */
    static final class Note extends CustomMessageTest.TestMessage {
        private static final long serialVersionUID = 1L;

        final String tag;

        Note(String tag) {
            this.tag = tag;
        }
    }
}
