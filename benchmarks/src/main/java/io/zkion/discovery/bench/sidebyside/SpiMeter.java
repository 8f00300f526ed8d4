package io.zkion.discovery.bench.sidebyside;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.lang.IgniteFuture;
import org.apache.ignite.spi.discovery.DiscoveryNotification;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;

/**
 * What the harness watches inside one SPI instance, the same way for all three SPIs:
 * <ul>
 * <li>what Ignite's own discovery listener allocates on the thread the SPI calls it from. Every SPI runs part of
 * Ignite's event handling inline, on its own thread; subtracting this leaves what the SPI itself allocates;</li>
 * <li>the CPU Ignite's listener and its discovery data exchange (a joiner's data collected, the cluster's data
 * applied) take on the SPI's own threads: work any SPI hands Ignite, counted in those threads' CPU;</li>
 * <li>when Ignite called the SPI's stop: the earliest a graceful leave can be announced;</li>
 * <li>when the SPI last handed Ignite a NODE_LEFT: the rest, until Ignite's event listeners have it, is Ignite's;</li>
 * <li>the last custom message of each kind the node sent, so that its size can be measured.</li>
 * </ul>
 */
final class SpiMeter {
    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final LongAdder bytes = new LongAdder();

    /** CPU of Ignite's listener and data exchange, where an SPI thread ({@link Scenarios#spiThread}) ran them. */
    private final LongAdder igniteCpuNanos = new LongAdder();

    private volatile long stopCalledNanos;

    private volatile long nodeLeftNotifiedNanos;

    private final Map<String, DiscoverySpiCustomMessage> lastSent = new ConcurrentHashMap<>();

    /** An SPI whose listener, stop and sends are metered. */
    interface Metered {
        SpiMeter meter();
    }

    long listenerBytes() {
        return bytes.sum();
    }

    /** @return CPU nanoseconds Ignite's listener and data exchange took on this SPI's own threads, so far. */
    long igniteCpuNanos() {
        return igniteCpuNanos.sum();
    }

    /** @return The current thread's CPU time if it is one of the SPI's threads, else -1. */
    private static long spiThreadCpu() {
        return Scenarios.spiThread(Thread.currentThread().getName()) ? MX.getCurrentThreadCpuTime() : -1;
    }

    private void addCpuSince(long cpu0) {
        if (cpu0 >= 0)
            igniteCpuNanos.add(MX.getCurrentThreadCpuTime() - cpu0);
    }

    DiscoverySpiDataExchange wrap(DiscoverySpiDataExchange x) {
        if (x == null)
            return null;

        return new DiscoverySpiDataExchange() {
            @Override public DiscoveryDataBag collect(DiscoveryDataBag bag) {
                return igniteWork(() -> x.collect(bag));
            }

            @Override public void onExchange(DiscoveryDataBag bag) {
                igniteWork(() -> {
                    x.onExchange(bag);

                    return null;
                });
            }
        };
    }

    /** @return What {@code work}, Ignite's, returned; its CPU counted if it ran on one of the SPI's threads. */
    private <T> T igniteWork(java.util.function.Supplier<T> work) {
        long cpu0 = spiThreadCpu();

        try {
            return work.get();
        }
        finally {
            addCpuSince(cpu0);
        }
    }

    /** @return {@link System#nanoTime()} when Ignite called the SPI's stop, or 0 if it has not. */
    long stopCalledNanos() {
        return stopCalledNanos;
    }

    /** @return {@link System#nanoTime()} when the SPI last called Ignite's listener with NODE_LEFT, or 0. */
    long nodeLeftNotifiedNanos() {
        return nodeLeftNotifiedNanos;
    }

    /** Notes when Ignite called the SPI's stop, then runs it. */
    void stop(Runnable spiStop) {
        if (stopCalledNanos == 0)
            stopCalledNanos = System.nanoTime();

        spiStop.run();
    }

    /** Keeps the message, then has the SPI send it. */
    void send(DiscoverySpiCustomMessage msg, Consumer<DiscoverySpiCustomMessage> spiSend) {
        Object inner = msg instanceof CustomMessageWrapper ? ((CustomMessageWrapper)msg).delegate() : msg;

        lastSent.put(inner.getClass().getSimpleName(), msg);
        spiSend.accept(msg);
    }

    /** @return The last message sent whose (unwrapped) class has this simple name, or null. */
    DiscoverySpiCustomMessage lastSent(String simpleName) {
        return lastSent.get(simpleName);
    }

    DiscoverySpiListener wrap(DiscoverySpiListener l) {
        if (l == null)
            return null;

        return new DiscoverySpiListener() {
            @Override public void onLocalNodeInitialized(ClusterNode locNode) {
                l.onLocalNodeInitialized(locNode);
            }

            @Override public IgniteFuture<?> onDiscovery(DiscoveryNotification n) {
                if (n.type() == EventType.EVT_NODE_LEFT)
                    nodeLeftNotifiedNanos = System.nanoTime();

                long before = MX.getThreadAllocatedBytes(Thread.currentThread().getId());
                long cpu0 = spiThreadCpu();

                try {
                    return l.onDiscovery(n);
                }
                finally {
                    bytes.add(MX.getThreadAllocatedBytes(Thread.currentThread().getId()) - before);
                    addCpuSince(cpu0);
                }
            }
        };
    }
}
