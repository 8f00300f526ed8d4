package io.zkion.discovery.bench.scale;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What the members of one JVM have seen, summed up so that the controller hears one line per fact from this JVM, not
 * one per member: when every local member saw a topology of a size, and when every local member had a message.
 * Times are wall-clock microseconds: every JVM of a run is on one machine, with one clock.
 */
final class JvmTally {
    private final AtomicInteger members = new AtomicInteger();
    private final Map<Integer, AtomicInteger> atSize = new ConcurrentHashMap<>();
    private final Map<Long, Receipt> messages = new ConcurrentHashMap<>();
    private final Map<Long, Receipt> acks = new ConcurrentHashMap<>();
    private final Consumer<String> out;
    private final String prefix;
    private volatile int awaitedSize = -1;
    private volatile CompletableFuture<Long> sizeReached = new CompletableFuture<>();

    /** @param prefix Names this tally's reports: {@code @<prefix>got} for one message everywhere here. */
    JvmTally(Consumer<String> out, String prefix) {
        this.out = out;
        this.prefix = prefix;
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /**
     * {@code n} more members start here: from now on every fact waits for them too. Counted before they join, so that
     * a fact is never complete while a local member has yet to hear of its own join.
     */
    void expect(int n) {
        members.addAndGet(n);
    }

    int members() {
        return members.get();
    }

    /** A member's topology went from {@code from} nodes to {@code to}. */
    void sizeChanged(int from, int to) {
        if (from > 0)
            atSize.computeIfAbsent(from, k -> new AtomicInteger()).decrementAndGet();

        int n = atSize.computeIfAbsent(to, k -> new AtomicInteger()).incrementAndGet();

        if (to == awaitedSize && n == members.get())
            sizeReached.complete(nowMicros());
    }

    /** A member that saw {@code size} nodes stopped (segmented): facts no longer wait for it. */
    void gone(int size) {
        members.decrementAndGet();

        if (size > 0)
            atSize.computeIfAbsent(size, k -> new AtomicInteger()).decrementAndGet();
    }

    /** @return When every local member sees {@code size} nodes: now, if they do already. */
    synchronized CompletableFuture<Long> awaitSize(int size) {
        sizeReached = new CompletableFuture<>();
        awaitedSize = size;

        AtomicInteger n = atSize.get(size);

        if (n != null && n.get() == members.get())
            sizeReached.complete(nowMicros());

        return sizeReached;
    }

    /** @return How many local members see each size, for a report of a wait that timed out. */
    String sizes() {
        StringBuilder sb = new StringBuilder();

        atSize.forEach((s, n) -> {
            if (n.get() > 0)
                sb.append(s).append('x').append(n.get()).append(' ');
        });

        return sb.toString().trim();
    }

    void message(long id) {
        received(messages, id, "got");
    }

    void ack(long id) {
        received(acks, id, "acked");
    }

    private void received(Map<Long, Receipt> m, long id, String what) {
        long now = nowMicros();
        Receipt r = m.computeIfAbsent(id, k -> new Receipt());

        r.last.accumulateAndGet(now, Math::max);
        r.first.accumulateAndGet(now, Math::min);

        if (r.count.incrementAndGet() == members.get()) {
            m.remove(id);
            out.accept("@" + prefix + what + " " + id + " " + r.last.get() + " " + r.first.get());
        }
    }

    private static final class Receipt {
        final AtomicInteger count = new AtomicInteger();
        final AtomicLong last = new AtomicLong();
        final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
    }
}
