package io.zkion.discovery.zk;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads many znodes with a bounded number in flight, and gives up only when ZooKeeper stops answering. A joiner of a
 * large cluster reads one data znode per member: a thousand requests sent at once pass the servers' outstanding-request
 * limit, and a join storm then takes longer than any fixed bound while every connection still makes progress (the
 * 1,000-member scale run lost 280 joiners to such a bound, on 2026-11-26).
 */
final class WindowedReads {
    /** Reads in flight per call: enough to hide a round trip, few enough to leave the servers' queues to others. */
    static final int WINDOW = 32;

    private final CuratorFramework client;
    private final ZkFaults faults;

    WindowedReads(CuratorFramework client, ZkFaults faults) {
        this.client = client;
        this.faults = faults;
    }

    /**
     * @return The data of each of {@code paths} that exists.
     * @throws KeeperException With the first path's name, OPERATIONTIMEOUT if no reply came for a session timeout (a
     *      session that cannot answer within it is as good as gone); with the failed one's, any error but NONODE.
     */
    Map<String, byte[]> read(Collection<String> paths) throws Exception {
        Map<String, byte[]> raw = new ConcurrentHashMap<>();
        Map<String, KeeperException.Code> failed = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(paths.size());
        Semaphore window = new Semaphore(WINDOW);
        AtomicLong lastReply = new AtomicLong(System.nanoTime());
        long bound = TimeUnit.MILLISECONDS.toNanos(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
        String first = paths.isEmpty() ? null : paths.iterator().next();

        for (String p : paths) {
            if (!window.tryAcquire(Math.max(0, left(lastReply, bound)), TimeUnit.NANOSECONDS))
                throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT, first);

            faults.readSent(p);
            client.getData().inBackground((c, e) -> {
                try {
                    faults.readReplied(p);

                    KeeperException.Code code = KeeperException.Code.get(e.getResultCode());

                    if (code == KeeperException.Code.OK)
                        raw.put(p, e.getData());
                    else if (code != KeeperException.Code.NONODE)
                        failed.put(p, code);
                }
                finally {
                    lastReply.set(System.nanoTime());
                    window.release();
                    done.countDown();
                }
            }).forPath(p);
        }

        while (!done.await(left(lastReply, bound), TimeUnit.NANOSECONDS)) {
            if (left(lastReply, bound) <= 0)
                throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT, first);
        }

        for (Map.Entry<String, KeeperException.Code> f : failed.entrySet())
            throw KeeperException.create(f.getValue(), f.getKey());

        return raw;
    }

    /** @return Nanoseconds left before the silence since the last reply reaches {@code bound}. */
    private static long left(AtomicLong lastReply, long bound) {
        return lastReply.get() + bound - System.nanoTime();
    }
}
