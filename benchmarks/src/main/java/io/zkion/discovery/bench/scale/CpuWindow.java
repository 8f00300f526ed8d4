package io.zkion.discovery.bench.scale;

import java.util.List;
import java.util.Map;
import io.zkion.discovery.chaos.ZkEnsemble;

/** The CPU some member JVMs, by kind of thread ({@link ThreadCpu}), and ZooKeeper's servers spend from its start. */
final class CpuWindow {
    private final List<MemberProcess> jvms;
    private final ZkEnsemble zk;
    private final Map<String, Long> threads0;
    private final long zk0;
    private Map<String, Long> threads1;
    private long zk1;

    /** Opens the window: reads where each clock stands. */
    CpuWindow(List<MemberProcess> jvms, ZkEnsemble zk) throws Exception {
        this.jvms = jvms;
        this.zk = zk;
        this.threads0 = MemberProcess.cpuByThread(jvms);
        this.zk0 = zk.cpuNanos();
    }

    /** Closes the window: what the getters report from here on. */
    CpuWindow close() throws Exception {
        threads1 = MemberProcess.cpuByThread(jvms);
        zk1 = zk.cpuNanos();

        return this;
    }

    /** @return The JVMs' CPU in the window, every kind of thread and the unattributed rest, in ns. */
    long jvmNanos() {
        long sum = 0;

        for (Map.Entry<String, Long> e : threads1.entrySet())
            sum += e.getValue() - threads0.getOrDefault(e.getKey(), 0L);

        return sum;
    }

    /** @return The servers' CPU in the window, in ns. */
    long zkNanos() {
        return zk1 - zk0;
    }

    /** @return The JVMs' CPU in the window by kind of thread, divided by {@code per} ns (see {@link ThreadCpu#share}). */
    Map<String, Double> byThread(double per) {
        return ThreadCpu.share(threads0, threads1, per);
    }
}
