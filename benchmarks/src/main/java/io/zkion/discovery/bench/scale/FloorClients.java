package io.zkion.discovery.bench.scale;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * The floor ZooKeeper itself sets, measured by bare Curator clients with nothing of ZkIon in between: the least work
 * the same outcome takes.
 * <ul>
 * <li>Join storm: every session creates an ephemeral znode holding a member's node data; the one that sees the
 * directory full marks it ready; every session then lists it once and reads every other's data once, as every Ignite
 * node must learn every node's attributes.</li>
 * <li>Fan-out: one write, which every session's data watch reports and every session then reads.</li>
 * <li>A message that asks for acks ({@link #ASKS_ACK} in its sequence): every session that reads it writes its own
 * znode once, the ack; {@link FloorRun} waits for all of them and writes the ack message, fanned out in turn.</li>
 * <li>A log: every session watches a directory recursively, as ZkIon's members watch the event log, and reads each
 * entry created there; {@link FloorRun} times a create alone against a create with deletes of old entries. Or every
 * session watches only the entry that comes next, by its name, so that no delete reaches it.</li>
 * </ul>
 */
final class FloorClients {
    /** Set in the sequence of a message every session acks. */
    static final long ASKS_ACK = 1L << 40;

    /** Reads in flight per session: ZooKeeper's server queues at most 1,000 requests in all by default. */
    private static final int IN_FLIGHT = 32;

    private final String connect;
    private final int sessionTimeout;
    private final JvmTally tally;
    private final List<CuratorFramework> clients = new ArrayList<>();

    /** Each session's own znode, where it writes its acks. */
    private final Map<CuratorFramework, String> owns = new ConcurrentHashMap<>();

    FloorClients(String connect, int sessionTimeout, JvmTally tally) {
        this.connect = connect;
        this.sessionTimeout = sessionTimeout;
        this.tally = tally;
    }

    /** @return When the last local session had read every other's data (wall-clock micros). */
    long joinStorm(int count, int total, byte[] data, String dir, long timeoutMs) throws Exception {
        CountDownLatch done = new CountDownLatch(count);
        AtomicLong last = new AtomicLong();
        List<Thread> threads = new ArrayList<>();

        tally.expect(count);

        for (int i = 0; i < count; i++) {
            CuratorFramework c = CuratorFrameworkFactory.newClient(connect, sessionTimeout, 15_000,
                new RetryForever(200));

            synchronized (clients) {
                clients.add(c);
            }

            Thread t = new Thread(() -> {
                try {
                    owns.put(c, join(c, total, data, dir));
                    last.accumulateAndGet(JvmTally.nowMicros(), Math::max);
                    done.countDown();
                }
                catch (Exception e) {
                    System.err.println("Floor session failed: " + e);
                }
                finally {
                    ThreadCpu.ended();
                }
            }, "floor-" + i);

            t.setDaemon(true);
            threads.add(t);
        }

        threads.forEach(Thread::start);

        if (!done.await(timeoutMs, TimeUnit.MILLISECONDS))
            throw new IllegalStateException(done.getCount() + " of " + count + " floor sessions did not finish");

        return last.get();
    }

    /** @return The session's own znode. */
    private static String join(CuratorFramework c, int total, byte[] data, String dir) throws Exception {
        c.start();
        c.blockUntilConnected();

        String own = c.create().withMode(CreateMode.EPHEMERAL).forPath(dir + "/" + UUID.randomUUID(), data);
        String ready = dir + "-ready";

        if (c.checkExists().forPath(dir).getNumChildren() >= total) {
            try {
                c.create().forPath(ready);
            }
            catch (KeeperException.NodeExistsException ignored) {
                // Another session saw it full first.
            }
        }

        CountDownLatch isReady = new CountDownLatch(1);

        if (c.checkExists().usingWatcher((Watcher)e -> isReady.countDown()).forPath(ready) == null)
            isReady.await();

        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        List<String> names = c.getChildren().forPath(dir);
        CountDownLatch read = new CountDownLatch(names.size() - 1);

        for (String n : names) {
            if (own.endsWith("/" + n))
                continue;

            inFlight.acquire();
            c.getData().inBackground((cl, e) -> {
                inFlight.release();
                read.countDown();
            }).forPath(dir + "/" + n);
        }

        read.await();

        return own;
    }

    /** Every session watches {@code path} and reads it whenever it changes; the tally hears each read. */
    void watch(String path) throws Exception {
        for (CuratorFramework c : clients)
            read(c, path);
    }

    private void read(CuratorFramework c, String path) throws Exception {
        Watcher w = (WatchedEvent e) -> {
            if (e.getType() == Watcher.Event.EventType.NodeDataChanged) {
                try {
                    read(c, path);
                }
                catch (Exception ex) {
                    System.err.println("Floor watch failed: " + ex);
                }
            }
        };

        c.getData().usingWatcher(w).inBackground((cl, e) -> {
            long seq = sequenceOf(e.getData());

            if (seq <= 0)
                return;

            tally.message(seq);

            if ((seq & ASKS_ACK) != 0)
                cl.setData().inBackground().forPath(owns.get(c), ByteBuffer.allocate(8).putLong(seq).array());
        }).forPath(path);
    }

    /**
     * Every session watches {@code dir} recursively and reads each entry created under it; the tally hears each read,
     * by the sequence the entry's name ends with ({@code e-<seq>}). A delete notifies every session too, and is read
     * by none: that is the cost {@link FloorRun#logEntries} weighs.
     */
    void watchLog(String dir) throws Exception {
        for (CuratorFramework c : clients) {
            c.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher((Watcher)e -> {
                if (e.getType() != Watcher.Event.EventType.NodeCreated)
                    return;

                String path = e.getPath();
                long seq = Long.parseLong(path.substring(path.lastIndexOf("/e-") + 3));

                try {
                    c.getData().inBackground((cl, r) -> tally.message(seq)).forPath(path);
                }
                catch (Exception ex) {
                    System.err.println("Floor log read failed: " + ex);
                }
            }).forPath(dir);
        }
    }

    /**
     * Every session watches, with a one-shot {@code exists}, the entry that comes next in {@code dir} ({@code x-1},
     * {@code x-2}, ...: names known in advance, as ZooKeeper's sequence numbers are), reads it once created and
     * watches the one after; the tally hears each read, by the sequence its data starts with. A watch fires once, so
     * no delete reaches a session, at the cost of one {@code exists} a session an entry.
     */
    void watchNext(String dir) throws Exception {
        for (CuratorFramework c : clients)
            awaitEntry(c, dir, 1);
    }

    private void awaitEntry(CuratorFramework c, String dir, long n) throws Exception {
        String path = dir + "/x-" + n;
        Watcher w = e -> {
            if (e.getType() == Watcher.Event.EventType.NodeCreated)
                readEntry(c, dir, n);
        };

        c.checkExists().usingWatcher(w).inBackground((cl, e) -> {
            if (e.getStat() != null)
                readEntry(c, dir, n); // Created before the watch: the watch now stands on its data, and is spent.
        }).forPath(path);
    }

    private void readEntry(CuratorFramework c, String dir, long n) {
        try {
            c.getData().inBackground((cl, e) -> {
                long seq = sequenceOf(e.getData());

                if (seq > 0)
                    tally.message(seq);

                awaitEntry(c, dir, n + 1);
            }).forPath(dir + "/x-" + n);
        }
        catch (Exception ex) {
            System.err.println("Floor next-entry read failed: " + ex);
        }
    }

    /** @return The sequence a floor write's data starts with; 0 if it holds none. */
    private static long sequenceOf(byte[] d) {
        return d != null && d.length >= 8 ? ByteBuffer.wrap(d).getLong() : 0;
    }

    void close() {
        synchronized (clients) {
            clients.forEach(CuratorFramework::close);
            clients.clear();
            owns.clear();
        }
    }
}
