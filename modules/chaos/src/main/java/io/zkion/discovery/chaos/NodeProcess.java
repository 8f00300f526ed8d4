package io.zkion.discovery.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** One incarnation of a chaos node's process, as the controller drives it: commands on stdin, signals by pid. */
final class NodeProcess {
    /** The nodes' java.util.logging configuration, written into the run directory. */
    static final String LOGGING = "logging.properties";

    private static final String LOGGING_CONFIG = "handlers=java.util.logging.ConsoleHandler\n"
        + "java.util.logging.ConsoleHandler.level=ALL\n"
        + "java.util.logging.ConsoleHandler.formatter=java.util.logging.SimpleFormatter\n"
        + "java.util.logging.SimpleFormatter.format=%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n\n"
        + ".level=WARNING\nio.zkion.level=INFO\n";

    final String name;
    final boolean client;
    final int incarnation;
    final Release release;
    private final Process proc;
    private final Path dir;

    private NodeProcess(String name, boolean client, int incarnation, Release release, Process proc, Path dir) {
        this.name = name;
        this.client = client;
        this.incarnation = incarnation;
        this.release = release;
        this.proc = proc;
        this.dir = dir;
    }

    /** Starts incarnation {@code incarnation} of node {@code name}, running {@code release}. */
    static NodeProcess start(String name, boolean client, int incarnation, RunSettings s, Release release)
        throws IOException {
        return start(name, client, incarnation, s, release, s.zkConnect);
    }

    /** The same, connecting to ZooKeeper through {@code zkConnect} (a proxy, say) instead of the run's ensemble. */
    static NodeProcess start(String name, boolean client, int incarnation, RunSettings s, Release release,
        String zkConnect) throws IOException {
        Path logging = s.runDir.resolve(LOGGING);

        if (!Files.exists(logging))
            Files.write(logging, LOGGING_CONFIG.getBytes(StandardCharsets.UTF_8));

        List<String> cmd = new ArrayList<>();
        boolean ownHost = s.lab != null && s.lab.has(name);

        // On a host of its own, the node's process runs in its network namespace and binds its address there.
        if (ownHost)
            cmd.addAll(s.lab.launcher(name));

        // In a session of its own (setsid execs the JVM in place, so the pid stays the JVM's): a node stopped with
        // SIGSTOP must stay stopped, and Linux sends SIGCONT to a process group left orphaned with a stopped member
        // when the shell that started the run exits (it resumed a scale run's paused member, 2026-11-29).
        cmd.add("setsid");
        cmd.add("java");
        cmd.add("-Xmx" + (client ? "320m" : "384m"));
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Djava.net.preferIPv4Stack=true");
        // Not quiet, so that the SPI's own lines (connection suspended, reconnected, lost) reach the node's .out;
        // the logging file keeps Ignite itself to warnings.
        cmd.add("-DIGNITE_QUIET=false");
        cmd.add("-Djava.util.logging.config.file=" + s.runDir.resolve(LOGGING));
        cmd.add("-DIGNITE_UPDATE_NOTIFIER=false");
        cmd.add("-DIGNITE_NO_ASCII=true");
        cmd.add("-Dzkion.chaos.sessionTimeout=" + s.sessionTimeout);
        cmd.add("-Dzkion.chaos.rollLogAt=" + s.rollLogAt);
        cmd.add("-Dzkion.chaos.atomicity=" + s.atomicity);

        if (ownHost)
            cmd.add("-D" + NodeConfig.HOST_PROPERTY + '=' + s.lab.address(name));

        for (String opt : s.jvmOpens.trim().split("\\s+")) {
            if (!opt.isEmpty())
                cmd.add(opt);
        }

        cmd.addAll(release.jvmArgs);
        cmd.add("-Dzkion.chaos.release=" + release.name);
        cmd.add("-cp");
        cmd.add(release.classPath);
        cmd.add(ChaosNode.class.getName());
        cmd.add(client ? "client" : "server");
        cmd.add(name);
        cmd.add(String.valueOf(incarnation));
        cmd.add(zkConnect);
        cmd.add(s.root);
        cmd.add(s.runDir.toString());

        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(s.runDir.resolve(name + '.' + incarnation + ".out").toFile()))
            .start();

        return new NodeProcess(name, client, incarnation, release, p, s.runDir);
    }

    String key() {
        return name + '.' + incarnation;
    }

    Path logFile() {
        return dir.resolve(key() + ".log");
    }

    long pid() {
        return proc.pid();
    }

    boolean alive() {
        return proc.isAlive();
    }

    /** @return The exit code, or -1 while running. */
    int exitCode() {
        return proc.isAlive() ? -1 : proc.exitValue();
    }

    /** Sends a command line; false if the process no longer reads them. */
    boolean command(String line) {
        try {
            OutputStream in = proc.getOutputStream();

            in.write((line + '\n').getBytes(StandardCharsets.UTF_8));
            in.flush();
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }

    void kill9() throws InterruptedException {
        proc.destroyForcibly();
        proc.waitFor();
    }

    void signal(String sig) throws IOException, InterruptedException {
        int rc = new ProcessBuilder("kill", "-" + sig, String.valueOf(proc.pid())).inheritIO().start().waitFor();

        if (rc != 0)
            throw new IOException("kill -" + sig + ' ' + proc.pid() + " exited " + rc);
    }

    boolean awaitExit(long timeoutMs) throws InterruptedException {
        return proc.waitFor(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * Waits for the node's answer to a command numbered {@code seq}: its first line of {@code kind} whose first
     * field is {@code seq}. @return The line, or null if none came within the timeout or the process ended.
     */
    NodeHistory.Line awaitAnswer(String kind, String seq, long timeoutMs) throws IOException, InterruptedException {
        return awaitLine(l -> l.kind.equals(kind) && l.fields.length > 0 && l.fields[0].equals(seq), timeoutMs);
    }

    /** @return The node's first line that {@code wanted} takes, or null if none came within the timeout or it ended. */
    NodeHistory.Line awaitLine(Predicate<NodeHistory.Line> wanted, long timeoutMs)
        throws IOException, InterruptedException {
        long end = System.currentTimeMillis() + timeoutMs;

        while (System.currentTimeMillis() < end && alive()) {
            for (NodeHistory.Line l : NodeHistory.read(logFile()).lines) {
                if (wanted.test(l))
                    return l;
            }

            Thread.sleep(250);
        }

        return null;
    }

    /** @return The status the node last wrote, or null if there is none of this incarnation yet. */
    NodeStatus status() {
        try {
            String s = new String(Files.readAllBytes(dir.resolve(name + ".status")), StandardCharsets.UTF_8).trim();
            NodeStatus st = NodeStatus.parse(s);

            return st != null && st.incarnation == incarnation ? st : null;
        }
        catch (IOException e) {
            return null;
        }
    }
}
