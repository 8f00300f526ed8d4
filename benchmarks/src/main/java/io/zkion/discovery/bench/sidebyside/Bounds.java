package io.zkion.discovery.bench.sidebyside;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.retry.RetryNTimes;
import org.apache.ignite.Ignite;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.marshaller.Marshaller;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * What bounds the targets, measured in the same run as the scenarios: the least any discovery SPI on ZooKeeper must
 * spend, whatever its design. Each is named for what it measures; the report puts them under the table.
 */
final class Bounds {
    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();

    /** The reading client's threads carry this name: ZooKeeper names its threads after the thread that built it. */
    private static final String READER = "bench-floor-reader";

    /** The bound: what a bare Curator client's ZooKeeper threads allocate to read one znode. */
    static final String READER_BYTES =
        "bare Curator: allocated by the reading client's ZooKeeper threads per node read (bytes)";

    /** The bound: what Ignite allocates to unmarshal one no-op message. */
    static final String UNMARSHAL_BYTES =
        "Ignite's JdkMarshaller: allocated to unmarshal one no-op message, as every node must (bytes)";

    private Bounds() {
    }

    /** What ZooKeeper itself costs, with bare Curator clients. */
    static final class ZooKeeperFloor {
        /** Per sample: one sequential create, a write round trip (ms). */
        final double[] writeMs;

        /** Per sample: that create until a second client, told by a recursive watch, has read the new node (ms). */
        final double[] readMs;

        /** What the reading client's threads allocated per node read: the watch event, the read and its reply. */
        final double readerBytesPerRead;

        ZooKeeperFloor(double[] writeMs, double[] readMs, double readerBytesPerRead) {
            this.writeMs = writeMs;
            this.readMs = readMs;
            this.readerBytesPerRead = readerBytesPerRead;
        }
    }

    /**
     * One-hop delivery at its least: a client creates a sequential node of {@code payload} bytes, another learns of it
     * through a recursive persistent watch (which names the new node, so nothing is listed) and reads it.
     */
    static ZooKeeperFloor zooKeeper(String connect, int samples, int payload) throws Exception {
        double[] write = new double[samples];
        double[] read = new double[samples];
        String parent = "/bench-floor-" + java.util.UUID.randomUUID();

        try (CuratorFramework a = curator(connect); CuratorFramework b = curatorOnThread(connect, READER)) {
            a.create().forPath(parent);

            BlockingQueue<Long> readAt = new LinkedBlockingQueue<>();

            try (PersistentWatcher w = new PersistentWatcher(b, parent, true)) {
                w.getListenable().addListener(e -> {
                    if (e.getType() != Watcher.Event.EventType.NodeCreated || parent.equals(e.getPath()))
                        return;

                    try {
                        b.getData().forPath(e.getPath());
                        readAt.add(System.nanoTime());
                    }
                    catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                });
                w.start();
                Thread.sleep(200); // Let the watch register.

                byte[] data = new byte[payload];
                long bytes0 = readerBytes();

                for (int i = 0; i < samples; i++) {
                    long t0 = System.nanoTime();

                    a.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(parent + "/e-", data);

                    long t1 = System.nanoTime();
                    Long t2 = readAt.poll(10, TimeUnit.SECONDS);

                    if (t2 == null)
                        throw new IllegalStateException("The watching client never read sample " + i);

                    write[i] = (t1 - t0) / 1e6;
                    read[i] = (t2 - t0) / 1e6;
                }

                return new ZooKeeperFloor(write, read, (readerBytes() - bytes0) / (double)samples);
            }
        }
    }

    /**
     * One write fanned out at its least: a client creates a sequential node of {@code payload} bytes, and each of
     * {@code readers} other clients learns of it through its own recursive persistent watch and reads it, as every
     * other node of a cluster must.
     *
     * @return Per sample, ms from the create until the last reader has read the node.
     */
    static double[] zooKeeperFanOut(String connect, int readers, int samples, int payload) throws Exception {
        double[] out = new double[samples];
        String parent = "/bench-fan-out-" + java.util.UUID.randomUUID();
        java.util.List<CuratorFramework> clients = new java.util.ArrayList<>();
        java.util.List<PersistentWatcher> watches = new java.util.ArrayList<>();
        AtomicReference<java.util.concurrent.CountDownLatch> pending = new AtomicReference<>();

        try {
            CuratorFramework writer = curator(connect);

            clients.add(writer);
            writer.create().forPath(parent);

            for (int i = 0; i < readers; i++) {
                CuratorFramework r = curator(connect);
                PersistentWatcher w = new PersistentWatcher(r, parent, true);

                clients.add(r);
                watches.add(w);
                w.getListenable().addListener(e -> {
                    if (e.getType() != Watcher.Event.EventType.NodeCreated || parent.equals(e.getPath()))
                        return;

                    try {
                        r.getData().forPath(e.getPath());
                        pending.get().countDown();
                    }
                    catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                });
                w.start();
            }

            Thread.sleep(200); // Let the watches register.

            byte[] data = new byte[payload];

            for (int i = 0; i < samples; i++) {
                java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(readers);

                pending.set(all); // Every reader counted the sample before down before this one is written.

                long t0 = System.nanoTime();

                writer.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(parent + "/e-", data);

                if (!all.await(10, TimeUnit.SECONDS))
                    throw new IllegalStateException("Readers never all read sample " + i + ": " + all.getCount() + " left");

                out[i] = (System.nanoTime() - t0) / 1e6;
            }

            return out;
        }
        finally {
            for (PersistentWatcher w : watches)
                w.close();

            for (CuratorFramework c : clients)
                c.close();
        }
    }

    /** @return Bytes allocated so far by the reading client's threads (its ZooKeeper send and event threads). */
    private static long readerBytes() {
        long total = Scenarios.allocatedTotal(t -> t.startsWith(READER));

        if (total == 0)
            throw new IllegalStateException("No thread named " + READER + "*: ZooKeeper named its threads otherwise");

        return total;
    }

    static CuratorFramework curator(String connect) throws Exception {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(3, 100));

        c.start();

        if (!c.blockUntilConnected(30, TimeUnit.SECONDS))
            throw new IllegalStateException("Cannot connect to " + connect);

        return c;
    }

    /** A client started from a thread of that name, so that its ZooKeeper threads carry the name too. */
    private static CuratorFramework curatorOnThread(String connect, String name) throws Exception {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                out.set(curator(connect));
            }
            catch (Exception e) {
                out.set(e);
            }
        }, name);

        t.start();
        t.join();

        if (out.get() instanceof Exception)
            throw (Exception)out.get();

        return (CuratorFramework)out.get();
    }

    /**
     * The least every node spends to deliver one no-op message: unmarshalling it with Ignite's JDK marshaller, as
     * Ignite hands it to the SPI (wrapped). Measured on this thread after a warm-up.
     *
     * @return Bytes allocated per unmarshal.
     */
    static double unmarshalBytes(Ignite node, int runs) throws Exception {
        Marshaller marsh = ((IgniteEx)node).context().marshallerContext().jdkMarshaller();
        ClassLoader ldr = Bounds.class.getClassLoader();
        byte[] bytes = marsh.marshal(new CustomMessageWrapper(new Ping(0)));

        for (int i = 0; i < runs; i++)
            marsh.unmarshal(bytes, ldr);

        long tid = Thread.currentThread().getId();
        long before = MX.getThreadAllocatedBytes(tid);

        for (int i = 0; i < runs; i++)
            marsh.unmarshal(bytes, ldr);

        return (MX.getThreadAllocatedBytes(tid) - before) / (double)runs;
    }

    /** @return Bytes of {@code msg} marshalled with Ignite's JDK marshaller and zlib-compressed. */
    static double compressedBytes(Ignite node, Object msg) throws Exception {
        return StreamingZip.defaults().marshalZip(((IgniteEx)node).context().marshallerContext().jdkMarshaller(), msg).length;
    }

    /** @return Mean size of ZkIon's data znodes under {@code root}/nodes: each joiner's node and joining data. */
    static double dataZnodeBytes(String connect, String root) throws Exception {
        try (CuratorFramework c = curator(connect)) {
            long total = 0;
            int n = 0;

            for (String child : c.getChildren().forPath(root + "/nodes")) {
                Stat st = c.checkExists().forPath(root + "/nodes/" + child);

                if (st != null) {
                    total += st.getDataLength();
                    n++;
                }
            }

            if (n == 0)
                throw new IllegalStateException("No data znode under " + root + "/nodes");

            return total / (double)n;
        }
    }
}
