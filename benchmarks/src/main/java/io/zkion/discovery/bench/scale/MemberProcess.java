package io.zkion.discovery.bench.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The controller's handle on one {@link MemberJvm}: commands in, replies out. Receipts of messages go to the run's
 * {@link Receipts}; every other reply waits in this JVM's queue for the command that asked for it.
 */
final class MemberProcess implements AutoCloseable {
    /**
     * Whether member JVMs, the floor's among them, compile with C1 only ({@code zkion.scale.memberJit=c1}), as they
     * did up to 2026-11-28, or tier up to C2 as an Ignite node's JVM does ({@code full}).
     */
    static final boolean C1_ONLY = c1Only(System.getProperty("zkion.scale.memberJit", "c1"));

    private static boolean c1Only(String jit) {
        if (!jit.equals("c1") && !jit.equals("full"))
            throw new IllegalArgumentException("zkion.scale.memberJit is c1 or full, not " + jit);

        return jit.equals("c1");
    }

    final String name;
    final int servers;
    final int clients;
    private final Process proc;
    private final Writer in;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    /**
     * @param servers, clients The members this JVM runs.
     * @param clusterSize The members of the whole cluster: each member here keeps every one of them.
     */
    MemberProcess(String name, int servers, int clients, int clusterSize, String connect, String root,
        int sessionTimeout, String classPath, List<String> jvmOpts, Path logDir, Receipts receipts) throws IOException {
        this.name = name;
        this.servers = servers;
        this.clients = clients;

        // A member: 2 MB for its session and engine, and 12 KB for each node it keeps (the attribute values themselves
        // are shared, see SharedValuesMarshaller); then room for the JIT, the GC and the messages in flight. G1: the
        // parallel collector's full GCs of a 4 GB heap took 7 to 10 s at 1,000 members, and cost members their sessions.
        long heapMb = 256 + (servers + clients) * (2048L + clusterSize * 12L) / 1024;
        // In a process group of its own (perl execs the JVM in place, so pid() is the JVM's): when the shell that
        // started the run exits, Linux sends SIGHUP and SIGCONT to a process group left orphaned with a stopped member,
        // which resumed a paused member JVM 10 s into its pause once (2026-11-29) and failed the run. Not a session of
        // its own (setsid, 48fc8a7 to 2026-11-29): with the kernel's autogroups each session shares the CPU as one, so
        // each member JVM took as much as the three ZooKeeper servers together, and at 1,000 members the storm's
        // start suspended 100 to 230 connections and failed 1 to 4 joins in each of 5 runs (none before).
        List<String> cmd = new ArrayList<>(List.of("perl", "-e", "setpgrp(0, 0); exec { $ARGV[0] } @ARGV or die $!",
            "java", "-Xms256m", "-Xmx" + heapMb + "m",
            "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=200", "-Xss256k", "-Djava.net.preferIPv4Stack=true"));

        if (C1_ONLY)
            cmd.add("-XX:TieredStopAtLevel=1");

        cmd.addAll(jvmOpts);
        cmd.addAll(List.of("-cp", classPath, MemberJvm.class.getName(), connect, root,
            Integer.toString(sessionTimeout), name));

        proc = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(logDir.resolve(name + ".log")
            .toFile())).start();
        in = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.UTF_8);

        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    // The JVM's own lines (a flight recording's notice) are not replies.
                    if (line.startsWith("@") && !receipts.offer(name, line))
                        replies.add(line);
                }
            }
            catch (IOException ignored) {
                // The process ended.
            }

            replies.add("@ended");
        }, "reader-" + name);

        reader.setDaemon(true);
        reader.start();
    }

    int members() {
        return servers + clients;
    }

    long pid() {
        return proc.pid();
    }

    void send(String command) throws IOException {
        synchronized (in) {
            in.write(command + "\n");
            in.flush();
        }
    }

    /** @return The next reply, which must start with {@code @<kind>} (any, if {@code kind} is null). */
    String[] reply(String kind, long timeoutMs) throws InterruptedException {
        String r = replies.poll(timeoutMs, TimeUnit.MILLISECONDS);

        if (r == null)
            throw new IllegalStateException(name + ": no reply '" + kind + "' within " + timeoutMs + " ms");

        String[] parts = r.split(" ");

        if (kind != null && !parts[0].equals("@" + kind))
            throw new IllegalStateException(name + ": expected '@" + kind + "', got '" + r + "'");

        return parts;
    }

    String[] call(String command, String kind, long timeoutMs) throws Exception {
        send(command);

        return reply(kind, timeoutMs);
    }

    /** @return The CPU time of {@code jvms}, summed, in ns. */
    static long cpuOf(List<MemberProcess> jvms) throws Exception {
        long sum = 0;

        for (MemberProcess m : jvms)
            sum += Long.parseLong(m.call("cpu", "cpu", 10_000)[1]);

        return sum;
    }

    /** @return The CPU time of {@code jvms} by kind of thread ({@link ThreadCpu}), summed, in ns. */
    static Map<String, Long> cpuByThread(List<MemberProcess> jvms) throws Exception {
        Map<String, Long> sum = new TreeMap<>();

        for (MemberProcess m : jvms)
            counts(m.call("cpu-threads", "cpu-threads", 10_000)).forEach((k, v) -> sum.merge(k, v, Long::sum));

        return sum;
    }

    /** @return The {@code key=count} pairs of a reply, comma-separated after its kind; none if it has no pairs. */
    static Map<String, Long> counts(String[] reply) {
        Map<String, Long> out = new LinkedHashMap<>();

        if (reply.length > 1) {
            for (String kv : reply[1].split(",")) {
                int eq = kv.indexOf('=');

                if (eq > 0)
                    out.merge(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)), Long::sum);
            }
        }

        return out;
    }

    /** Kills the JVM as {@code kill -9} does; returns once it is gone. */
    void kill() throws InterruptedException {
        proc.destroyForcibly();
        proc.waitFor();
    }

    /** Pauses or resumes the JVM, as a stop-the-world pause would. */
    void signal(String sig) throws Exception {
        new ProcessBuilder("kill", "-" + sig, Long.toString(proc.pid())).inheritIO().start().waitFor();
    }

    /** @return The JVM's state as Linux reports it ({@code T}: stopped), or "gone". */
    String state() {
        try {
            String stat = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/" + proc.pid() + "/stat")),
                StandardCharsets.US_ASCII);

            // pid (comm) state ...: comm may hold spaces, so the state follows the last ')'.
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        }
        catch (IOException e) {
            return "gone";
        }
    }

    @Override public void close() throws InterruptedException {
        if (!proc.isAlive())
            return;

        try {
            call("stop", "stopped", 60_000);
        }
        catch (Exception e) {
            // Gone or stuck: killed below.
        }

        if (!proc.waitFor(10, TimeUnit.SECONDS))
            kill();
    }
}
