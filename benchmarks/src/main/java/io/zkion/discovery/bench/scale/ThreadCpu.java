package io.zkion.discovery.bench.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * This JVM's CPU time by kind of thread: ZkIon's discovery threads, ZooKeeper's client threads (the socket's and the
 * one that runs watchers and callbacks), the other Java threads, and what no Java thread accounts for (the garbage
 * collector, the JIT): where a delivery's CPU goes, next to the floor's clients, which have no discovery thread.
 */
final class ThreadCpu {
    private ThreadCpu() {
    }

    /** @return {@code kind=ns} pairs, comma-separated. */
    static String byKind() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new TreeMap<>();
        long java = 0;

        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null)
                continue;

            long ns = mx.getThreadCpuTime(t.getThreadId());

            if (ns > 0) {
                out.merge(kind(t.getThreadName()), ns, Long::sum);
                java += ns;
            }
        }

        long process = ((com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();

        out.put("gc-jit-vm", process - java);

        return out.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static String kind(String name) {
        if (name.startsWith("zkion-discovery"))
            return "discovery";

        if (name.contains("-SendThread("))
            return "zk-socket";

        if (name.endsWith("-EventThread"))
            return "zk-events";

        return "other-java";
    }

    /** @return {@code into}, with the times of {@code s} (as {@link #byKind} writes them) added kind by kind. */
    static Map<String, Long> parse(String s, Map<String, Long> into) {
        for (String kv : s.split(",")) {
            int eq = kv.indexOf('=');

            if (eq > 0)
                into.merge(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)), Long::sum);
        }

        return into;
    }
}
