package io.zkion.discovery.zk;

import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * The gate znode that members' appends to the log are checked against. A member appends with a version check
 * of the gate as it read it open; the coordinator closes the gate (a write, so the version moves) when the
 * tail of the log must stand still, and an append racing that fails its check instead of landing.
 * <p>
 * This class keeps the last version read, decoded once and forgotten when a data watch fires, so an append
 * usually costs no read. What the data says, and what "open" means, is the caller's: it is opaque here.
 */
public final class LogGate<T> {
    private final CuratorFramework client;
    private final String path;
    private final Function<byte[], T> decode;
    private final Predicate<T> isOpen;
    private final Watcher watcher = e -> invalidate();

    private Seen<T> seen;

    /** Moves on every invalidation, so a read the watch overtook is not cached. */
    private long generation;

    public LogGate(CuratorFramework client, String path, Function<byte[], T> decode, Predicate<T> isOpen) {
        this.client = client;
        this.path = path;
        this.decode = decode;
        this.isOpen = isOpen;
    }

    /** A version of the gate and what it held then. */
    public static final class Seen<T> {
        public final int version;
        public final T value;

        Seen(int version, T value) {
            this.version = version;
            this.value = value;
        }
    }

    /** Forgets what was read: the gate changed, or an append's check said it did. */
    public synchronized void invalidate() {
        seen = null;
        generation++;
    }

    /** @return The gate as seen now if it is open, or null while it is closed. */
    public Seen<T> openOrNull() throws Exception {
        Seen<T> s = current();

        return isOpen.test(s.value) ? s : null;
    }

    /** @return The gate as seen now, open or closed: read only if the cached version was invalidated. */
    public Seen<T> current() throws Exception {
        Seen<T> s;
        long gen;

        synchronized (this) {
            s = seen;
            gen = generation;
        }

        if (s == null) {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).usingWatcher(watcher).forPath(path);

            s = new Seen<>(stat.getVersion(), decode.apply(data));

            synchronized (this) {
                // A watch that fired during the read leaves nothing cached: the next call reads again.
                if (generation == gen)
                    seen = s;
            }
        }

        return s;
    }

    /** @return An op that fails the multi unless the gate is still at {@code version}. */
    public CuratorOp checkOp(int version) throws Exception {
        return client.transactionOp().check().withVersion(version).forPath(path);
    }
}
