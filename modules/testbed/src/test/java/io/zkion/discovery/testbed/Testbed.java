package io.zkion.discovery.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The testbed as the tests drive it: {@code docker/testbed} subcommands and the containers' own output. Every call is
 * bounded; what each printed goes to this class's log, so a failed scenario shows what the script did.
 */
final class Testbed {
    /** The session timeout of docker-compose.yml's nodes. */
    static final long SESSION_TIMEOUT_MS = 20_000;

    private static final Pattern ALIVE = Pattern.compile(
        "\\{\"id\":\"([0-9a-f-]{36})\"[^}]*?\"client\":(true|false)[^}]*?\"host\":\"([^\"]*)\"");

    private final Map<String, String> env = new HashMap<>();

    private final Path log;

    Testbed(Path log) throws IOException {
        this.log = log;
        Files.createDirectories(log.getParent());
    }

    /** Sets a variable of every later command, e.g. ZKION_LIBS. */
    Testbed with(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Runs {@code docker/testbed args}: the exit code and everything it printed. */
    Result run(long timeoutSec, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "docker/testbed"));
        cmd.addAll(List.of(args));
        return exec(timeoutSec, cmd);
    }

    /** Runs a subcommand that must succeed. */
    String must(long timeoutSec, String... args) throws IOException, InterruptedException {
        Result r = run(timeoutSec, args);
        if (r.code != 0 && !(args[0].equals("cli") && r.code == 1 && r.out.contains("\"alive\"")))
            throw new AssertionError("docker/testbed " + String.join(" ", args) + " exited " + r.code + ":\n" + r.out);
        return r.out;
    }

    /** @return The container of a compose service, running or not; empty if none. */
    String container(String service) throws IOException, InterruptedException {
        return exec(30, List.of("docker", "ps", "-aq", "--filter", "label=com.docker.compose.project=zkion-testbed",
            "--filter", "label=com.docker.compose.service=" + service)).out.trim().split("\n")[0];
    }

    /** @return A container's output since it was created (all its runs), each line with Docker's time stamp. */
    List<Line> logs(String service) throws IOException, InterruptedException {
        List<Line> lines = new ArrayList<>();
        String id = container(service);
        if (id.isEmpty())
            return lines;
        for (String l : exec(60, List.of("docker", "logs", "--timestamps", id)).out.split("\n")) {
            int sp = l.indexOf(' ');
            if (sp > 0 && Character.isDigit(l.charAt(0)))
                lines.add(new Line(Instant.parse(l.substring(0, sp)), l.substring(sp + 1)));
        }
        return lines;
    }

    /** @return The first time after {@code since} that a line of the service's output contains every word; null if none. */
    Instant firstLine(String service, Instant since, String... words) throws IOException, InterruptedException {
        for (Line l : logs(service)) {
            if (l.at.isBefore(since))
                continue;
            boolean all = true;
            for (String w : words)
                all &= l.text.contains(w);
            if (all)
                return l.at;
        }
        return null;
    }

    /** @return The earliest such line among several services' output; null if none has one. */
    Instant firstLine(List<String> services, Instant since, String... words) throws IOException, InterruptedException {
        Instant first = null;
        for (String svc : services) {
            Instant at = firstLine(svc, since, words);
            if (at != null && (first == null || at.isBefore(first)))
                first = at;
        }
        return first;
    }

    /** @return The nodes zkion-cli sees alive: host name to node id (clients included). */
    Map<String, String> alive() throws IOException, InterruptedException {
        return alive(must(90, "cli", "status", "--json"));
    }

    /** @return The nodes of a {@code status --json} output: host name to node id. */
    static Map<String, String> alive(String json) {
        Map<String, String> nodes = new HashMap<>();
        for (Matcher m = ALIVE.matcher(json); m.find(); )
            nodes.put(m.group(3), m.group(1));
        return nodes;
    }

    /** @return The host name of the coordinator, as zkion-cli reads it. */
    String coordinatorHost() throws IOException, InterruptedException {
        String out = must(90, "cli", "status", "--json");
        Matcher c = Pattern.compile("\"coordinator\":\"([0-9a-f-]{36})\"").matcher(out);
        if (!c.find())
            throw new AssertionError("No coordinator in zkion-cli's status: " + out);
        for (Matcher m = ALIVE.matcher(out); m.find(); ) {
            if (m.group(1).equals(c.group(1)))
                return m.group(3);
        }
        throw new AssertionError("The coordinator " + c.group(1) + " is not among the alive nodes: " + out);
    }

    private Result exec(long timeoutSec, List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(checkout().toFile());
        pb.environment().putAll(env);
        Path out = Files.createTempFile("testbed", ".out");
        Process p = null;
        boolean done = false;
        try {
            p = pb.redirectOutput(out.toFile()).start();
            done = p.waitFor(timeoutSec, TimeUnit.SECONDS);
            String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
            if (!cmd.contains("logs"))
                Files.write(log, ("$ " + String.join(" ", cmd) + "\n" + text).getBytes(StandardCharsets.UTF_8),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            return new Result(done ? p.exitValue() : -1, done ? text : text + "\n(killed after " + timeoutSec + " s)");
        }
        finally {
            // Timed out or interrupted (a JUnit timeout): nothing of it may go on after the test's own cleanup.
            if (p != null && !done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(out);
        }
    }

    /** What a command did. */
    static final class Result {
        final int code;
        final String out;

        Result(int code, String out) {
            this.code = code;
            this.out = out;
        }
    }

    /** One line of a container's output. */
    static final class Line {
        final Instant at;
        final String text;

        Line(Instant at, String text) {
            this.at = at;
            this.text = text;
        }
    }

    /** @return The checkout's top (where docker/testbed is). */
    static Path checkout() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docker/testbed")))
                return p;
        }
        throw new IllegalStateException("No docker/testbed above " + Paths.get("").toAbsolutePath());
    }
}
