package io.zkion.discovery.bench.sidebyside;

import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;

/**
 * One join storm, measured with what bounds it: the wall time, the CPU the whole JVM and the SPI's threads spent
 * meanwhile (and of the latter, what Ignite's listener and data exchange took, and ZooKeeper's send threads, the socket
 * I/O any client of ZooKeeper pays), the bytes ZooKeeper received, and what its transaction log shows was written, by
 * directory. The log is read between two marker znodes, created outside the byte count.
 */
final class StormMeter {
    /** What one storm cost. */
    static final class Storm {
        long wallMs;

        /** The JVM's CPU over the storm, spread over every core: near the wall time, the storm was CPU-bound. */
        double jvmCpuPerCoreMs;

        /** CPU of the SPI's threads, by name ({@link Scenarios#spiThread}). */
        double spiCpuMs;

        /** Of {@link #spiCpuMs}: Ignite's listener and data exchange, run on those threads. */
        double igniteOnSpiCpuMs;

        /** Of {@link #spiCpuMs}: ZooKeeper's send threads, each session's socket I/O. */
        double zkSendCpuMs;

        /** What ZooKeeper received per join, requests and paths included; -1 without ZooKeeper. */
        double receivedPerJoin = -1;

        /** What the storm wrote, from the server's transaction log; null without ZooKeeper. */
        TxnLogTally written;

    }

    private StormMeter() {
    }

    /** Starts {@code count} servers of {@code c} together and measures it. */
    static Storm measure(BenchCluster c, SpiKind kind, int count, TestingServer zk, String root) throws Exception {
        boolean withZk = kind.usesZooKeeper();
        long from = withZk ? TxnLogTally.marker(zk.getConnectString()) : -1;
        long received0 = withZk ? Scenarios.zkBytesReceived(zk.getPort()) : -1;
        long cpu0 = processCpuNanos();
        Map<Long, Long> spi0 = Scenarios.spiCpuNanos();
        Map<Long, Long> zkSend0 = Scenarios.zkSendCpuNanos();
        Storm s = new Storm();

        s.wallMs = c.startTogether(count);
        s.jvmCpuPerCoreMs = (processCpuNanos() - cpu0) / 1e6 / Runtime.getRuntime().availableProcessors();
        s.spiCpuMs = Scenarios.spiCpuNanosSince(spi0) / 1e6;
        s.zkSendCpuMs = Scenarios.zkSendCpuNanosSince(zkSend0) / 1e6;

        for (Ignite n : c.nodes())
            s.igniteOnSpiCpuMs += SpiKind.meter(n.configuration().getDiscoverySpi()).igniteCpuNanos() / 1e6;

        if (withZk) {
            long received = Scenarios.zkBytesReceived(zk.getPort());

            if (received0 >= 0 && received >= 0)
                s.receivedPerJoin = (received - received0) / (double)count;

            s.written = TxnLogTally.read(zk, from, TxnLogTally.marker(zk.getConnectString()), root);
        }

        return s;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)java.lang.management.ManagementFactory
            .getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
