package io.zkion.discovery.bench.scale;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.engine.NodeEngine;
import org.apache.ignite.cluster.ClusterNode;

/**
 * One JVM of simulated members, driven by {@link ScaleRun} over stdin. It answers on stdout, one line per fact,
 * each starting with {@code @}; anything else there or on stderr is for the run's log. Commands:
 * <pre>
 * start S C           start S servers and C clients, all at once; "@started OK FAILED"
 * await-size N MS     "@size N MICROS" once every member here sees N nodes, or "@size-timeout N SIZES"
 * send ID ACK         a member here sends message ID (ACK 1: it needs Ignite's ack); "@sent ID MICROS"; then
 *                     "@got ID MICROS" once every member here has it, "@acked ID MICROS" once its ack
 * crd                 "@crd UUID LOCAL": the coordinator, and whether it is a member here
 * topver              "@topver MIN MAX" over the members here
 * ids                 "@ids UUID..." of the members here
 * states              "@states STATE=COUNT,...": the members' engine states, a joined one's with its outage
 *                     state (JOINED/CONNECTED, JOINED/FROZEN...)
 * cpu                 "@cpu NANOS": this JVM's CPU time
 * floor-join N TOTAL FILE DIR   the join-storm floor: "@floor-joined MICROS"
 * floor-watch PATH    the fan-out floor: "@fgot SEQ MICROS" for each write every session here read
 * floor-log DIR       the log floor: "@fgot SEQ MICROS" for each entry e-SEQ created in DIR every session here read
 * floor-next DIR      the same for entries x-1, x-2, ... of DIR, each session watching the next one's name alone
 * floor-close         "@floor-closed"
 * stop                stops every member, "@stopped", and exits
 * </pre>
 */
public final class MemberJvm {
    private final String connect;
    private final String root;
    private final int sessionTimeout;
    private final String jvmName;
    private final PrintStream out;
    private final JvmTally tally;
    private final FloorClients floor;
    private final NodeDataSample sample = NodeDataSample.load();
    private final List<SimMember> members = new CopyOnWriteArrayList<>();
    private final SimComms comms;

    private MemberJvm(String connect, String root, int sessionTimeout, String jvmName) throws java.io.IOException {
        this.connect = connect;
        this.root = root;
        this.sessionTimeout = sessionTimeout;
        this.jvmName = jvmName;
        this.out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
            StandardCharsets.UTF_8);
        this.tally = new JvmTally(this::reply, "");
        this.floor = new FloorClients(connect, sessionTimeout, new JvmTally(this::reply, "f"));
        this.comms = new SimComms();
    }

    /** Arguments: the connection string, the root, the session timeout in ms, a name for this JVM. */
    public static void main(String[] args) throws Exception {
        System.setOut(System.err); // Only replies go to the controller's pipe.

        MemberJvm jvm = new MemberJvm(args[0], args[1], Integer.parseInt(args[2]), args[3]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

        for (String line; (line = in.readLine()) != null; ) {
            try {
                if (!jvm.handle(line.trim().split(" ")))
                    break;
            }
            catch (Exception e) {
                e.printStackTrace();
                jvm.reply("@error " + line + ": " + e);
            }
        }

        System.exit(0); // Members' threads are not all daemons; the controller waits for nothing more.
    }

    private synchronized void reply(String line) {
        out.println(line);
    }

    private boolean handle(String[] c) throws Exception {
        switch (c[0]) {
            case "start":
                start(Integer.parseInt(c[1]), Integer.parseInt(c[2]));
                break;
            case "await-size":
                awaitSize(Integer.parseInt(c[1]), Long.parseLong(c[2]));
                break;
            case "send":
                send(Long.parseLong(c[1]), "1".equals(c[2]));
                break;
            case "crd":
                coordinator();
                break;
            case "ids":
                reply("@ids " + members.stream().map(m -> m.id.toString()).collect(Collectors.joining(" ")));
                break;
            case "states":
                reply("@states " + members.stream().collect(Collectors.groupingBy(m -> m.engine().state().name()
                    + (m.engine().state() == NodeEngine.State.JOINED ? "/" + m.engine().outageState() : ""),
                    TreeMap::new, Collectors.counting())).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(",")));
                break;
            case "topver":
                reply("@topver " + members.stream().mapToLong(SimMember::topVer).min().orElse(0) + " "
                    + members.stream().mapToLong(SimMember::topVer).max().orElse(0));
                break;
            case "cpu":
                reply("@cpu " + ((com.sun.management.OperatingSystemMXBean)ManagementFactory
                    .getOperatingSystemMXBean()).getProcessCpuTime());
                break;
            case "cpu-threads":
                reply("@cpu-threads " + ThreadCpu.byKind());
                break;
            case "floor-join":
                reply("@floor-joined " + floor.joinStorm(Integer.parseInt(c[1]), Integer.parseInt(c[2]),
                    Files.readAllBytes(Paths.get(c[3])), c[4], 600_000));
                break;
            case "floor-watch":
                floor.watch(c[1]);
                reply("@floor-watching");
                break;
            case "floor-log":
                floor.watchLog(c[1]);
                reply("@floor-logging");
                break;
            case "floor-next":
                floor.watchNext(c[1]);
                reply("@floor-nexting");
                break;
            case "floor-close":
                floor.close();
                reply("@floor-closed");
                break;
            case "stop":
                members.parallelStream().forEach(SimMember::stop);
                reply("@stopped");
                return false;
            default:
                reply("@error unknown command " + c[0]);
        }

        return true;
    }

    /** Starts every member on a thread of its own, all at once, and waits for each to have joined. */
    private void start(int servers, int clients) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        AtomicInteger failed = new AtomicInteger();
        int count = servers + clients;

        tally.expect(count);

        for (int i = 0; i < count; i++) {
            SimMember m = new SimMember(jvmName + "-" + (members.size() + i), sample, i >= servers, tally, comms);

            threads.add(new Thread(() -> {
                try {
                    m.start(connect, root, sessionTimeout, 600_000);
                    members.add(m);
                }
                catch (RuntimeException e) {
                    failed.incrementAndGet();
                    System.err.println("Member " + m.name + " failed to start: " + e);
                }
                finally {
                    ThreadCpu.ended();
                }
            }, "start-" + m.name));
        }

        threads.forEach(Thread::start);

        for (Thread t : threads)
            t.join();

        reply("@started " + (count - failed.get()) + " " + failed.get());
    }

    private void awaitSize(int size, long timeoutMs) throws InterruptedException {
        CompletableFuture<Long> f = tally.awaitSize(size);

        try {
            reply("@size " + size + " " + f.get(timeoutMs, TimeUnit.MILLISECONDS));
        }
        catch (TimeoutException | ExecutionException e) {
            reply("@size-timeout " + size + " " + tally.sizes().replace(' ', ','));
        }
    }

    private void send(long id, boolean ack) {
        SimMember m = members.stream().filter(x -> !x.client()).findFirst().orElse(members.get(0));
        long t = JvmTally.nowMicros();

        m.engine().sendCustom(new SimMessage(id, ack));
        reply("@sent " + id + " " + t);
    }

    private void coordinator() {
        NodeEngine e = members.get(0).engine();
        ClusterNode crd = e.coordinator();
        boolean local = crd != null && members.stream().anyMatch(m -> m.id.equals(crd.id()));

        reply("@crd " + (crd == null ? "none" : crd.id()) + " " + (local ? 1 : 0));
    }
}
