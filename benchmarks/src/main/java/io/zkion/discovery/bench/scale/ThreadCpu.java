package io.zkion.discovery.bench.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * This JVM's CPU time by kind of thread: ZkIon's discovery threads, ZooKeeper's client threads (the socket's and the
 * one that runs watchers and callbacks), the other Java threads, and the rest of the process's CPU: the garbage
 * collector, the JIT, the VM, and threads that ended without saying what they spent ({@link #ended}): where a
 * delivery's CPU goes, next to the floor's clients, which have no discovery thread.
 */
final class ThreadCpu {
    /** What the harness's own short-lived threads spent, told as each ends, by thread id (ids are never reused). */
    private static final Map<Long, Map.Entry<String, Long>> ENDED = new ConcurrentHashMap<>();

    private ThreadCpu() {
    }

    /** Called last on a thread that is about to end: its CPU stays counted under its kind. */
    static void ended() {
        Thread t = Thread.currentThread();

        ENDED.put(t.getId(), Map.entry(kind(t.getName()), ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime()));
    }

    /** @return {@code kind=ns} pairs, comma-separated. */
    static String byKind() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new TreeMap<>();
        Set<Long> live = new HashSet<>();
        long counted = 0;

        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null)
                continue;

            long ns = mx.getThreadCpuTime(t.getThreadId());

            if (ns > 0) {
                out.merge(kind(t.getThreadName()), ns, Long::sum);
                counted += ns;
                live.add(t.getThreadId());
            }
        }

        // A thread read live above is counted once, though it told its time already.
        for (Map.Entry<Long, Map.Entry<String, Long>> e : ENDED.entrySet()) {
            if (!live.contains(e.getKey())) {
                out.merge(e.getValue().getKey(), e.getValue().getValue(), Long::sum);
                counted += e.getValue().getValue();
            }
        }

        long process = ((com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();

        out.put("unattributed", process - counted);

        return out.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static String kind(String name) {
        // ZooKeeper names its threads after the one that made the session, which may be a discovery thread.
        if (name.contains("-SendThread("))
            return "zk-socket";

        if (name.endsWith("-EventThread"))
            return "zk-events";

        if (name.startsWith("zkion-discovery"))
            return "discovery";

        return "other-java";
    }

    /**
     * @param per The ns of CPU that make one of the unit reported: {@code 1e3} times the deliveries for micros per
     *      delivery, {@code 1e6} times the members for ms per member.
     * @return The CPU from {@code before} to {@code after}, by kind of thread, divided by {@code per}. A thread that
     *      ended in between without {@link #ended} leaves its kind's share short, and the unattributed one long.
     */
    static Map<String, Double> share(Map<String, Long> before, Map<String, Long> after, double per) {
        Map<String, Double> out = new TreeMap<>();

        after.forEach((k, v) -> out.put(k, ShapeRun.round((v - before.getOrDefault(k, 0L)) / per)));

        return out;
    }
}
