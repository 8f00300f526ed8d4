package io.zkion.discovery.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A ZooKeeper ensemble of three QuorumPeerMain processes on loopback, on free ports, each with its own data
 * directory that outlives a stop, so a server stopped and started again rejoins with its data. The scale run of the
 * benchmarks uses it too, with a larger heap and the four-letter words it reads its counters with.
 */
public final class ZkEnsemble implements AutoCloseable {
    public static final int SIZE = 3;

    private final Path dir;
    private final String classPath;
    private final int heapMb;
    private final int[] clientPorts = new int[SIZE];
    /** The address the servers take clients at, and the controller reaches them at. */
    private final String clientAddress;
    private final Process[] procs = new Process[SIZE];

    ZkEnsemble(Path dir, String classPath) throws IOException {
        this(dir, classPath, 192, "127.0.0.1");
    }

    /** @param heapMb Each server's heap: a thousand sessions with their watches need more than the chaos run. */
    public ZkEnsemble(Path dir, String classPath, int heapMb) throws IOException {
        this(dir, classPath, heapMb, "127.0.0.1");
    }

    /**
     * @param clientAddress Where the servers take clients: loopback, or the bridge's address when nodes in network
     *      namespaces reach them over it ({@link NetLab#HOST}).
     */
    ZkEnsemble(Path dir, String classPath, int heapMb, String clientAddress) throws IOException {
        this.clientAddress = clientAddress;
        this.dir = dir;
        this.classPath = classPath;
        this.heapMb = heapMb;

        int[] ports = freePorts(SIZE * 3);
        StringBuilder servers = new StringBuilder();

        for (int i = 0; i < SIZE; i++) {
            clientPorts[i] = ports[i];
            servers.append("server.").append(i + 1).append("=127.0.0.1:").append(ports[SIZE + i]).append(':')
                .append(ports[2 * SIZE + i]).append('\n');
        }

        for (int i = 0; i < SIZE; i++) {
            Path d = dir.resolve("zk" + (i + 1));

            Files.createDirectories(d);
            Files.write(d.resolve("myid"), String.valueOf(i + 1).getBytes(StandardCharsets.UTF_8));
            // Ticks of 1 s let sessions of 2 to 60 s (the scale run's 1,000 members on two cores need more than the
            // default 20 s); no fsync: a killed process loses nothing the OS holds.
            Files.write(d.resolve("zoo.cfg"), ("tickTime=1000\ninitLimit=10\nsyncLimit=5\nforceSync=no\nmaxSessionTimeout=60000\n"
                + "dataDir=" + d.toAbsolutePath() + "\nclientPort=" + clientPorts[i] + "\nclientPortAddress=" + clientAddress + "\n"
                + "admin.enableServer=false\n4lw.commands.whitelist=srvr,mntr,wchs\nmaxClientCnxns=0\n" + servers)
                .getBytes(StandardCharsets.UTF_8));
        }
    }

    public String connectString() {
        StringBuilder sb = new StringBuilder();

        for (int p : clientPorts)
            sb.append(sb.length() == 0 ? "" : ",").append(clientAddress).append(':').append(p);

        return sb.toString();
    }

    int[] clientPorts() {
        return clientPorts.clone();
    }

    public void startAll() throws Exception {
        for (int i = 0; i < SIZE; i++)
            start(i);

        for (int i = 0; i < SIZE; i++)
            awaitServing(i, 120_000);
    }

    public void start(int i) throws IOException {
        Path d = dir.resolve("zk" + (i + 1));

        procs[i] = new ProcessBuilder("java", "-Xmx" + heapMb + "m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Djute.maxbuffer=1048575", "-cp", classPath, ZkServerMain.class.getName(),
            d.resolve("zoo.cfg").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("zk" + (i + 1) + ".out").toFile()))
            .start();
    }

    /** Stops server {@code i} as a crash would. */
    public void kill(int i) throws InterruptedException {
        procs[i].destroyForcibly();
        procs[i].waitFor();
    }

    /** @return The CPU time of the servers running now, summed, in ns; a server the OS says nothing of counts 0. */
    public long cpuNanos() {
        long sum = 0;

        for (Process p : procs) {
            if (p != null && p.isAlive())
                sum += p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        }

        return sum;
    }

    public boolean running(int i) {
        return procs[i] != null && procs[i].isAlive();
    }

    public void awaitServing(int i, long timeoutMs) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;

        while (!serving(i)) {
            if (System.currentTimeMillis() > end)
                throw new IllegalStateException("ZooKeeper server " + (i + 1) + " does not serve; see " + dir);

            Thread.sleep(200);
        }
    }

    /** @return Whether server {@code i} serves: {@code srvr} names a mode only then ({@code ruok} says imok before). */
    public boolean serving(int i) {
        String r = fourLetters(i, "srvr");

        return r != null && r.contains("Mode:");
    }

    /** @return Server {@code i}'s answer to a four-letter word ({@code srvr}, {@code mntr} or {@code wchs}), or null. */
    public String fourLetters(int i, String word) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(clientAddress, clientPorts[i]), 1000);
            s.setSoTimeout(5000);

            OutputStream out = s.getOutputStream();

            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = s.getInputStream();

            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        catch (IOException e) {
            return null;
        }
    }

    boolean allServing() {
        for (int i = 0; i < SIZE; i++) {
            if (!serving(i))
                return false;
        }

        return true;
    }

    @Override public void close() {
        for (Process p : procs) {
            if (p != null)
                p.destroyForcibly();
        }
    }

    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        int[] ports = new int[n];

        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0);

                held.add(s);
                ports[i] = s.getLocalPort();
            }
        }
        finally {
            for (ServerSocket s : held)
                s.close();
        }

        return ports;
    }
}
