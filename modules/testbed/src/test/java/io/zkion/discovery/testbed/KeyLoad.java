package io.zkion.discovery.testbed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.CacheWriteSynchronizationMode;
import org.apache.ignite.client.ClientCache;
import org.apache.ignite.client.ClientCacheConfiguration;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.configuration.ClientConfiguration;

/**
 * Keys put into the testbed through Ignite's thin client, from the host, and checked afterwards. A key counts as
 * acknowledged once its put returned; the cache writes every backup before a put returns (FULL_SYNC), so an
 * acknowledged key must survive the loss of any one server.
 */
final class KeyLoad implements AutoCloseable {
    /** The servers' thin-client ports on the host's loopback (docker-compose.yml). */
    private static final String[] SERVERS = {"127.0.0.1:20801", "127.0.0.1:20802", "127.0.0.1:20803"};

    private final IgniteClient client;

    private final ClientCache<Integer, String> cache;

    private final Set<Integer> acked = new ConcurrentSkipListSet<>();

    private final AtomicLong failures = new AtomicLong();

    private volatile boolean running;

    /** The next key to put: a failed put's key is not tried again, as the put may have been applied anyway. */
    private int next;

    private Thread writer;

    KeyLoad(String cacheName, int backups) {
        client = Ignition.startClient(new ClientConfiguration().setAddresses(SERVERS)
            .setPartitionAwarenessEnabled(false).setTimeout(5_000));
        try {
            cache = client.getOrCreateCache(new ClientCacheConfiguration().setName(cacheName).setBackups(backups)
                .setWriteSynchronizationMode(CacheWriteSynchronizationMode.FULL_SYNC));
        }
        catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Starts putting keys 0, 1, 2... one at a time, a failed put retried as the next key. */
    KeyLoad start() {
        running = true;
        writer = new Thread(() -> {
            for (int k = next; running; k = ++next) {
                try {
                    cache.put(k, "v" + k);
                    acked.add(k);
                    Thread.sleep(2);
                }
                catch (InterruptedException e) {
                    return;
                }
                catch (RuntimeException e) {
                    failures.incrementAndGet();
                    try {
                        Thread.sleep(200);
                    }
                    catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }, "testbed-writer");
        writer.setDaemon(true);
        writer.start();
        return this;
    }

    /** Stops the writer and waits for its last put. */
    void stop() throws InterruptedException {
        running = false;
        if (writer != null)
            writer.join(TimeUnit.SECONDS.toMillis(30));
    }

    int acked() {
        return acked.size();
    }

    long failedPuts() {
        return failures.get();
    }

    /** @return Acknowledged keys that are missing or hold another value, read back in batches (retried on errors). */
    List<Integer> lost() throws InterruptedException {
        List<Integer> keys = new ArrayList<>(acked);
        List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += 500) {
            Set<Integer> batch = new HashSet<>(keys.subList(i, Math.min(keys.size(), i + 500)));
            Map<Integer, String> got = null;
            for (int attempt = 0; got == null; attempt++) {
                try {
                    got = cache.getAll(batch);
                }
                catch (RuntimeException e) {
                    if (attempt == 20)
                        throw e;
                    Thread.sleep(1_000);
                }
            }
            for (Integer k : batch) {
                if (!("v" + k).equals(got.get(k)))
                    lost.add(k);
            }
        }
        return lost;
    }

    /** Creates a cache, which takes discovery custom messages through ZooKeeper, and writes one key to it. */
    void createCache(String name) {
        client.getOrCreateCache(name).put(1, "one");
    }

    @Override public void close() throws Exception {
        stop();
        client.close();
    }
}
