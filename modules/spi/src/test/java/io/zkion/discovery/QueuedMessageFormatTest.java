package io.zkion.discovery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import io.zkion.discovery.CustomMessageTest.Mutable;
import io.zkion.discovery.CustomMessageTest.MutableAck;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * A message queued for the coordinator is written in the format the cluster writes when it is sent, not in the one of
 * the sender's join: the cluster's format moves as nodes come and go, and the coordinator may read no other.
 */
public class QueuedMessageFormatTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aQueuedMessageIsWrittenInTheFormatOfNow() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1"); // Joins while the cluster writes ion-2.
        Ignite old = start(config("old", false).setDiscoverySpi(spi().setEventFormats("jdk-zlib")));

        Ignition.stop(s1.name(), true);

        // The node that reads only the JDK format coordinates now.
        await("old coordinates", 30_000, () -> spiOf(old).engine() != null
            && spiOf(old).engine().coordinatorForTest() != null && c1.cluster().nodes().size() == 2);

        Map<String, List<String>> got = new ConcurrentHashMap<>();

        for (Ignite n : List.of(old, c1))
            listen(n, got);

        // A mutable message always goes through the coordinator's queue.
        ((IgniteEx)c1).context().discovery().sendCustomEvent(new Mutable());

        for (Ignite n : List.of(old, c1))
            await(n.name() + " got the message and its ack", 30_000, () -> got.get(n.name()).size() == 2);

        assertEquals(List.of("mutable original", "ack original"), got.get("old"));
        assertEquals(List.of("mutable original", "ack original"), got.get("c1"));
    }

    /**
     * The entries from before a new coordinator's join are still in the log (their trim held), written in a format it
     * does not read. It takes over anyway: it cannot log the acks of the messages in them, says so, and trims them.
     * Without that, it stopped as on a corrupt entry, and so would every successor.
     */
    @Test(timeout = 120_000) public void aCoordinatorTakesOverOlderEntriesItCannotRead() throws Exception {
        Ignite s1 = start("s1");
        Ignite c1 = startClient("c1");
        Map<String, List<String>> got = new ConcurrentHashMap<>();

        spiOf(s1).engine().coordinatorForTest().holdTrimForTest(true);
        listen(c1, got);
        ((IgniteEx)c1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("in ion-2"));

        Ignite old = start(config("old", false).setDiscoverySpi(spi().setEventFormats("jdk-zlib")));

        Ignition.stop(s1.name(), true);

        await("old coordinates", 30_000, () -> spiOf(old).engine() != null
            && spiOf(old).engine().coordinatorForTest() != null && c1.cluster().nodes().size() == 2);

        listen(old, got);
        ((IgniteEx)c1).context().discovery().sendCustomEvent(new Mutable());

        for (Ignite n : List.of(old, c1))
            await(n.name() + " got the message and its ack", 30_000, () -> got.get(n.name()).contains("ack original"));

        await("the older entries are trimmed", 30_000, () -> spiOf(old).engine().pendingEntries() <= 2);
        assertEquals(2, old.cluster().nodes().size());
    }

    private static void listen(Ignite n, Map<String, List<String>> got) {
        List<String> l = new CopyOnWriteArrayList<>();

        got.put(n.name(), l);

        GridDiscoveryManager disco = ((IgniteEx)n).context().discovery();

        disco.setCustomEventListener(Mutable.class, (topVer, snd, msg) -> l.add("mutable " + msg.value));
        disco.setCustomEventListener(MutableAck.class, (topVer, snd, msg) -> l.add("ack " + msg.value));
        disco.setCustomEventListener(CustomMessageTest.Ping.class, (topVer, snd, msg) -> l.add("ping " + msg.tag));
    }
}
