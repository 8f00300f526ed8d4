package io.zkion.discovery.zk;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads many znodes with a bounded number in flight, and gives up only when ZooKeeper stops answering for long. A joiner of a
 * large cluster reads one data znode per member: a thousand requests sent at once pass the servers' outstanding-request
 * limit, and a join storm then takes longer than any fixed bound while every connection still makes progress (the
 * 1,000-member scale run lost 280 joiners to such a bound, on 2026-11-26).
 */
final class WindowedReads {
    /** Reads in flight per call: enough to hide a round trip, few enough to leave the servers' queues to others. */
    static final int WINDOW = 32;

    /**
     * Session timeouts with no reply before the reads give up. A lost connection fails them sooner, through Curator's
     * own retries; this bounds a wait nothing else ends. More than one: a reader's own GC pause (10 s, in the
     * 1,000-member run) is no silence of ZooKeeper's, yet its clock counts it.
     */
    static final int SILENT_SESSIONS = 3;

    /** How often a wait looks for a failed read, which ends it before the rest reply. */
    private static final long FAILURE_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CuratorFramework client;
    private final ZkFaults faults;
    private final long silenceMs;

    /** @return Reads that give up after {@link #SILENT_SESSIONS} of the client's session timeouts with no reply. */
    static WindowedReads forSession(CuratorFramework client, ZkFaults faults) throws Exception {
        return new WindowedReads(client, faults,
            SILENT_SESSIONS * (long)client.getZookeeperClient().getZooKeeper().getSessionTimeout());
    }

    /** Gives up after {@code silenceMs} with no reply. */
    WindowedReads(CuratorFramework client, ZkFaults faults, long silenceMs) {
        this.client = client;
        this.faults = faults;
        this.silenceMs = silenceMs;
    }

    /**
     * @return The data of each of {@code paths} that exists.
     * @throws KeeperException OPERATIONTIMEOUT with the name of the oldest read still unanswered, if no reply came for
     *      the silence this was made with; with the failed one's, any error but NONODE.
     */
    Map<String, byte[]> read(Collection<String> paths) throws Exception {
        Map<String, byte[]> raw = new ConcurrentHashMap<>();
        Map<String, KeeperException.Code> failed = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(paths.size());
        Semaphore window = new Semaphore(WINDOW);
        AtomicLong lastReply = new AtomicLong(System.nanoTime());
        long bound = TimeUnit.MILLISECONDS.toNanos(silenceMs);
        // The reads still waiting for a reply, by when each was sent: a timeout names the oldest of them.
        ConcurrentSkipListMap<Integer, String> waiting = new ConcurrentSkipListMap<>();
        int sent = 0;

        for (String p : paths) {
            if (!failed.isEmpty())
                break; // It throws anyway: no more requests to a connection that fails them.

            if (!window.tryAcquire(Math.max(0, left(lastReply, bound)), TimeUnit.NANOSECONDS))
                throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT, oldest(waiting, p));

            int seq = sent++;

            waiting.put(seq, p);
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
                    waiting.remove(seq); // Handled, not only arrived: the silence counts until then.
                    lastReply.set(System.nanoTime());
                    window.release();
                    done.countDown();
                }
            }).forPath(p);
        }

        while (failed.isEmpty() && !done.await(Math.min(left(lastReply, bound), FAILURE_CHECK_NS), TimeUnit.NANOSECONDS)) {
            if (left(lastReply, bound) <= 0)
                throw KeeperException.create(KeeperException.Code.OPERATIONTIMEOUT, oldest(waiting, null));
        }

        for (Map.Entry<String, KeeperException.Code> f : failed.entrySet())
            throw KeeperException.create(f.getValue(), f.getKey());

        return raw;
    }

    /** @return The oldest read still unanswered; {@code otherwise} if a reply just came for the last. */
    private static String oldest(ConcurrentSkipListMap<Integer, String> waiting, String otherwise) {
        Map.Entry<Integer, String> e = waiting.firstEntry();

        return e == null ? otherwise : e.getValue();
    }

    /** @return Nanoseconds left before the silence since the last reply reaches {@code bound}. */
    private static long left(AtomicLong lastReply, long bound) {
        return lastReply.get() + bound - System.nanoTime();
    }
}
