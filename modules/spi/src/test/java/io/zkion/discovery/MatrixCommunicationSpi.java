package io.zkion.discovery;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteNodeAttributes;
import org.apache.ignite.internal.util.future.IgniteFinishedFutureImpl;
import org.apache.ignite.internal.util.future.IgniteFutureImpl;
import org.apache.ignite.internal.util.future.GridFutureAdapter;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;

/**
 * Ignite's TCP communication whose connection check answers from a matrix the test sets: the links cut, one way, by
 * instance name. A check can be held until the test releases it, and one node's checks can be made to never answer.
 */
public class MatrixCommunicationSpi extends TcpCommunicationSpi {
    /** "from|to": {@code from}'s check does not reach {@code to}. */
    static final Set<String> CUT = ConcurrentHashMap.newKeySet();

    /** Instance names whose checks wait for {@link #release}. */
    static final Set<String> HELD = ConcurrentHashMap.newKeySet();

    /** Instance names whose checks have begun. */
    static final Set<String> CHECKING = ConcurrentHashMap.newKeySet();

    static volatile CountDownLatch release = new CountDownLatch(0);

    /** Instance names whose held checks wait for a latch of their own instead of {@link #release}. */
    static final Map<String, CountDownLatch> RELEASE_OF = new ConcurrentHashMap<>();

    static void reset() {
        CUT.clear();
        HELD.clear();
        CHECKING.clear();
        RELEASE_OF.clear();
        release = new CountDownLatch(0);
    }

    /** Cuts the link between {@code a} and {@code b}, both ways. */
    static void cut(String a, String b) {
        CUT.add(a + '|' + b);
        CUT.add(b + '|' + a);
    }

    @Override public IgniteFuture<BitSet> checkConnection(List<ClusterNode> nodes) {
        String me = ignite.name();
        BitSet bits = new BitSet();

        for (int i = 0; i < nodes.size(); i++) {
            if (!CUT.contains(me + '|' + nodes.get(i).attribute(IgniteNodeAttributes.ATTR_IGNITE_INSTANCE_NAME)))
                bits.set(i);
        }

        CHECKING.add(me);

        if (!HELD.contains(me))
            return new IgniteFinishedFutureImpl<>(bits);

        GridFutureAdapter<BitSet> fut = new GridFutureAdapter<>();
        CountDownLatch l = RELEASE_OF.getOrDefault(me, release);

        Thread t = new Thread(() -> {
            try {
                l.await(60, TimeUnit.SECONDS);
            }
            catch (InterruptedException ignored) {
                // Answer anyway.
            }

            fut.onDone(bits);
        }, "held-check-" + me);

        t.setDaemon(true);
        t.start();

        return new IgniteFutureImpl<>(fut);
    }
}
