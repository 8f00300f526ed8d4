package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.GridDiscoveryManager;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * A custom message whose class one node lacks: that node skips it, with an error that names it and a metric, and
 * stays; the others deliver it. (TcpDiscoverySpi does the same.) Before, the node stopped, and so would every node
 * that lacks the class, coordinators too.
 */
public class PoisonMessageTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void aNodeThatCannotReadAMessageSkipsItAndStays() throws Exception {
        Ignite s1 = start("s1");
        ClassLoader without = new HidingClassLoader(getClass().getClassLoader(), Poison.class.getName());
        Ignite s2 = start(config("s2", false).setClassLoader(without).setDiscoverySpi(spi()));
        List<String> seen1 = listen(s1);
        List<String> seen2 = listen(s2);

        ((IgniteEx)s1).context().discovery().sendCustomEvent(new Poison("p"));
        ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("after"));

        // Each node delivers in its own time: wait for both.
        await("both got the ping after it", 30_000, () -> seen2.contains("ping after") && seen1.contains("ping after"));

        assertTrue(seen1.toString(), seen1.containsAll(List.of("poison p", "ping after")));
        assertEquals(List.of("ping after"), seen2);
        assertEquals(1, spiOf(s2).discoveryMetrics().undeliverable());
        assertEquals(2, s2.cluster().nodes().size());
    }

    private static List<String> listen(Ignite n) {
        List<String> l = new CopyOnWriteArrayList<>();
        GridDiscoveryManager disco = ((IgniteEx)n).context().discovery();

        disco.setCustomEventListener(Poison.class, (topVer, snd, msg) -> l.add("poison " + msg.tag));
        disco.setCustomEventListener(CustomMessageTest.Ping.class, (topVer, snd, msg) -> l.add("ping " + msg.tag));

        return l;
    }

    /** A message class of its own, so that one node's class loader can hide it. */
    static final class Poison extends CustomMessageTest.TestMessage {
        private static final long serialVersionUID = 1L;

        final String tag;

        Poison(String tag) {
            this.tag = tag;
        }
    }

    /** Loads everything as its parent does, but one class, as on a node whose class path lacks it. */
    private static final class HidingClassLoader extends ClassLoader {
        private final String hidden;

        HidingClassLoader(ClassLoader parent, String hidden) {
            super(parent);
            this.hidden = hidden;
        }

        @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(hidden))
                throw new ClassNotFoundException(name + " is hidden from this node");

            return super.loadClass(name, resolve);
        }
    }
}
