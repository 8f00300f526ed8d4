package io.zkion.discovery.bench.sidebyside;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.IgniteDiscoverySpi;

/** The measured scenarios. Each returns plain numbers; the driver alternates SPIs and aggregates. */
final class Scenarios {
    private Scenarios() {
    }

    /** @return Per event, ms from send until every node's listener has it; sent one at a time. */
    static double[] customRoundTrip(List<Ignite> nodes, int events) throws Exception {
        CountDownLatch[] done = new CountDownLatch[events];

        for (int i = 0; i < events; i++)
            done[i] = new CountDownLatch(nodes.size());

        for (Ignite n : nodes) {
            ((IgniteEx)n).context().discovery().setCustomEventListener(Ping.class, (topVer, snd, msg) -> {
                if (msg.seq >= 0 && msg.seq < events)
                    done[msg.seq].countDown();
            });
        }

        double[] ms = new double[events];
        Ignite sender = nodes.get(nodes.size() - 1);

        for (int i = 0; i < events; i++) {
            long t0 = System.nanoTime();

            ((IgniteEx)sender).context().discovery().sendCustomEvent(new Ping(i));

            if (!done[i].await(30, TimeUnit.SECONDS))
                throw new IllegalStateException("Custom event " + i + " did not reach every node");

            ms[i] = (System.nanoTime() - t0) / 1e6;
        }

        return ms;
    }

    /** @return Bytes allocated by every thread of this JVM (all nodes) per no-op custom event. */
    static double allocationPerEvent(List<Ignite> nodes, int events) throws Exception {
        customRoundTrip(nodes, 50); // Warm up the listeners and code paths.

        long before = allocatedAllThreads();

        customRoundTrip(nodes, events);

        return (allocatedAllThreads() - before) / (double)events;
    }

    private static long allocatedAllThreads() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long total = 0;

        for (long id : mx.getAllThreadIds()) {
            long b = mx.getThreadAllocatedBytes(id);

            if (b > 0)
                total += b;
        }

        return total;
    }

    /** @return ms from a graceful stop until every other node saw NODE_LEFT. */
    static double leave(BenchCluster c, Ignite leaving) throws Exception {
        return departure(c, leaving, EventType.EVT_NODE_LEFT, () -> Ignition.stop(leaving.name(), true));
    }

    /** @return ms from an abrupt session loss until every other node saw NODE_FAILED. */
    static double failure(BenchCluster c, Ignite failing) throws Exception {
        return departure(c, failing, EventType.EVT_NODE_FAILED,
            () -> ((IgniteDiscoverySpi)failing.configuration().getDiscoverySpi()).simulateNodeFailure());
    }

    private static double departure(BenchCluster c, Ignite gone, int type, Runnable action) throws Exception {
        List<Ignite> others = c.nodes();

        others.remove(gone);

        CountDownLatch seen = new CountDownLatch(others.size());
        java.util.UUID id = gone.cluster().localNode().id();

        for (Ignite n : others) {
            n.events().localListen(e -> {
                if (((org.apache.ignite.events.DiscoveryEvent)e).eventNode().id().equals(id))
                    seen.countDown();

                return true;
            }, type);
        }

        long t0 = System.nanoTime();

        action.run();

        if (!seen.await(60, TimeUnit.SECONDS))
            throw new IllegalStateException("Not every node saw event " + type + " for " + id);

        double ms = (System.nanoTime() - t0) / 1e6;

        c.forget(gone);

        try {
            Ignition.stop(gone.name(), true);
        }
        catch (Exception ignored) {
            // Already stopped.
        }

        return ms;
    }

    /** @return ZooKeeper's count of bytes received from clients, from its {@code mntr} command; -1 if unknown. */
    static long zkBytesReceived(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();

            out.write("mntr".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));

            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("zk_bytes_received_count"))
                    return Long.parseLong(line.split("\\s+")[1].trim());
            }
        }
        catch (Exception ignored) {
            // Reported as unknown.
        }

        return -1;
    }
}
