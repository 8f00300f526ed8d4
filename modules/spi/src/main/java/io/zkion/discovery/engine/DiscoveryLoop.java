package io.zkion.discovery.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The discovery thread and what runs on it. Every ZooKeeper notification only schedules one cycle here, so all
 * state changes happen on one thread, in one order.
 */
final class DiscoveryLoop {
    private final ScheduledExecutorService worker;
    private final Runnable cycle;
    private final AtomicBoolean cycleQueued = new AtomicBoolean();

    DiscoveryLoop(String igniteInstanceName, Runnable cycle) {
        this.cycle = cycle;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> new DiscoveryThread(r,
            // Ignite's way of naming a node's threads: thread dumps and profilers tell the nodes of one JVM apart.
            "zkion-discovery%" + (igniteInstanceName == null ? "" : igniteInstanceName) + '%'));
    }

    /** Schedules one cycle; notifications that arrive while one is queued share it. */
    void trigger() {
        if (cycleQueued.compareAndSet(false, true)) {
            try {
                worker.execute(() -> {
                    cycleQueued.set(false);
                    cycle.run();
                });
            }
            catch (RejectedExecutionException ignored) {
                // Stopping.
            }
        }
    }

    /** Schedules one cycle after {@code ms}. */
    void triggerAfter(long ms) {
        worker.schedule(this::trigger, ms, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code r} on the discovery thread; throws {@link RejectedExecutionException} once stopped. */
    void execute(Runnable r) {
        worker.execute(r);
    }

    /** Runs {@code r} on the discovery thread; the future is done at once if the loop is stopped. */
    Future0 submit(Runnable r) {
        CompletableFuture<Void> f = new CompletableFuture<>();

        try {
            worker.execute(() -> {
                try {
                    r.run();
                }
                finally {
                    f.complete(null);
                }
            });
        }
        catch (RejectedExecutionException e) {
            f.complete(null);
        }

        return new Future0(f);
    }

    /** Stops the thread, interrupting what runs on it. */
    void shutdown() {
        worker.shutdownNow();
    }

    /** Waits, at most {@code ms}, for the thread to end after {@link #shutdown}; an interrupt is kept. */
    void awaitTermination(long ms) {
        try {
            worker.awaitTermination(ms, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return A run of {@code action} on the discovery thread after {@code ms}, scheduled once at a time. */
    Delayed delayed(long ms, Runnable action) {
        return new Delayed(ms, action);
    }

    /** A future waited on with a bound, for stop. */
    static final class Future0 {
        private final CompletableFuture<Void> f;

        Future0(CompletableFuture<Void> f) {
            this.f = f;
        }

        void await(long ms) {
            try {
                f.get(ms, TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // Kept for the caller: it stops anyway.
            }
            catch (Exception ignored) {
                // Bounded on purpose: stop must not hang on a stuck listener.
            }
        }
    }

    /** A run on the discovery thread after a delay, scheduled once at a time; used on that thread only. */
    final class Delayed {
        private final long ms;
        private final Runnable action;
        private boolean pending;

        private Delayed(long ms, Runnable action) {
            this.ms = ms;
            this.action = action;
        }

        boolean pending() {
            return pending;
        }

        /** Schedules the run, unless one is pending already. */
        void schedule() {
            if (pending)
                return;

            pending = true;

            try {
                worker.schedule(() -> {
                    pending = false;
                    action.run();
                }, ms, TimeUnit.MILLISECONDS);
            }
            catch (RejectedExecutionException ignored) {
                // Stopping.
            }
        }
    }
}
