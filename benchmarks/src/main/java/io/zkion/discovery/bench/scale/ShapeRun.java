package io.zkion.discovery.bench.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.zkion.discovery.internal.AckPolicy;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.chaos.Percentiles;
import io.zkion.discovery.chaos.ZkEnsemble;
import org.apache.curator.framework.CuratorFramework;

/**
 * One shape's run on the shipped protocol: the join storm, one more join, custom messages with and without Ignite's
 * ack, with the ensemble's counters around them; then the faults of {@link FaultPhases}, and the same work's floor by
 * bare Curator clients ({@link FloorRun}).
 */
final class ShapeRun {
    private final Shape shape;
    private final ZkEnsemble zk;
    private final CuratorFramework admin;
    private final ScaleSettings settings;
    private final Map<String, Object> res = new LinkedHashMap<>();
    private final String root;
    private final Path nodeData;
    private SimCluster c;

    ShapeRun(Shape shape, ZkEnsemble zk, CuratorFramework admin, ScaleSettings settings) {
        this.shape = shape;
        this.zk = zk;
        this.admin = admin;
        this.settings = settings;
        this.root = "/scale-" + shape.servers + "-" + shape.clients;
        this.nodeData = settings.logDir.resolve(root.substring(1) + "-node-data.bin");
    }

    /** Runs the floor alone, beside one member ({@code -Dzkion.scale.floorOnly=true}): to weigh a floor quickly. */
    private static final boolean FLOOR_ONLY = Boolean.getBoolean("zkion.scale.floorOnly");

    Map<String, Object> run() throws Exception {
        JvmLayout layout = new JvmLayout(shape);

        res.put("members", shape.members());
        res.put("servers", shape.servers);
        res.put("clients", shape.clients);
        res.put("jvms", layout.toString());
        res.put("sessionTimeoutMs", settings.sessionTimeout);
        res.put("decodeOncePerJvm", DecodeOnce.ON);
        res.put("memberJit", MemberProcess.C1_ONLY ? "c1" : "full");
        res.put("commit", System.getProperty("zkion.scale.commit", "unknown"));
        System.out.println("[" + shape + "] layout: " + layout);

        try (SimCluster cluster = new SimCluster(layout, shape.members() + 1, zk.connectString(), root, settings)) {
            c = cluster;

            if (!"0".equals(c.crd.call("start 1 0", "started", 120_000)[2]))
                throw new IllegalStateException("The first member failed to start; see " + settings.logDir);

            c.members = 1;

            if (FLOOR_ONLY) {
                // The first member's data znode is all the floor needs: minutes of ZkIon's phases saved.
                nodeData();
            }
            else {
                FaultPhases.phase("joinStorm", res, this::joinStorm);
                FaultPhases.phase("oneMoreJoin", res, this::oneMoreJoin);
                nodeData();
                settle();
                FaultPhases.phase("customs", res, this::customs);
                if (!System.getProperty("zkion.scale.skip", "").contains("idle"))
                    FaultPhases.phase("idle", res, this::idle);
                new FaultPhases(zk, admin, c, res).run();
            }
        }

        res.putAll(new FloorRun(shape, zk, admin, settings, c.receipts).run(nodeData));

        return res;
    }

    private void joinStorm() throws Exception {
        List<MemberProcess> rest = c.jvms.subList(1, c.jvms.size());
        CpuWindow cpu = new CpuWindow(rest, zk);
        long crdCpu0 = MemberProcess.cpuOf(List.of(c.crd));
        ZkCounters c0 = ZkCounters.read(zk);
        long t0 = JvmTally.nowMicros();

        for (MemberProcess m : rest)
            m.send("start " + m.servers + " " + m.clients);

        int failed = 0;

        for (MemberProcess m : rest)
            failed += Integer.parseInt(m.reply("started", settings.stepTimeoutMs)[2]);

        if (failed > 0)
            throw new IllegalStateException(failed + " members failed to start; see " + settings.logDir);

        c.members = shape.members();

        long last = c.awaitSize(c.members);
        Map<String, Double> d = ZkCounters.read(zk).minus(c0);
        long[] v = c.topVerRange();

        res.put("joinStormMs", ms(last - t0));
        // What carries over to a cluster of separate machines: each member's own CPU for the whole storm.
        cpu.close();
        res.put("stormCpuMsPerMember", round(cpu.jvmNanos() / 1e6 / (c.members - 1)));
        res.put("stormCpuMsPerMemberByThread", cpu.byThread(1e6 * (c.members - 1)));
        // Where the machine's CPU went in the storm: the members, the coordinator (every join passes it), the servers.
        res.put("stormCoordinatorCpuMs", Math.round((MemberProcess.cpuOf(List.of(c.crd)) - crdCpu0) / 1e6));
        res.put("stormZkServersCpuMs", Math.round(cpu.zkNanos() / 1e6));
        res.put("stormZkCounters", d);
        res.put("stormZkRequests", d.getOrDefault("zk_packets_received", 0d).longValue());
        res.put("stormZkMBytesOut", round(ZkCounters.bytesOut(d) / 1e6));
        res.put("joinStormTopVer", v[0] == v[1] ? (Object)v[0] : v[0] + ".." + v[1]);
    }

    private void oneMoreJoin() throws Exception {
        long t0 = JvmTally.nowMicros();

        c.bulk.call("start 1 0", "started", settings.stepTimeoutMs);
        c.members++;
        res.put("oneJoinMs", ms(c.awaitSize(c.members) - t0));
    }

    /** Keeps one member's data znode for the floor, which writes the same bytes. */
    private void nodeData() throws Exception {
        String dir = root + "/nodes";
        String child = admin.getChildren().forPath(dir).get(0);
        byte[] data = admin.getData().forPath(dir + "/" + child);

        Files.write(nodeData, data);
        res.put("nodeDataBytes", data.length);
    }

    /** Waits for the acks and trims of the joins, so that the custom messages' counters hold theirs alone. */
    private void settle() throws Exception {
        Thread.sleep(1_000);
        awaitTrimmed();
        res.put("logAfterSettle", admin.checkExists().forPath(root + "/log").getNumChildren());
    }

    /** @return How long, up to 30 s, until the log holds at most 2 entries: every member acked, the rest trimmed. */
    private long awaitTrimmed() throws Exception {
        long start = System.currentTimeMillis();

        while (admin.checkExists().forPath(root + "/log").getNumChildren() > 2 && System.currentTimeMillis() < start + 30_000)
            Thread.sleep(100);

        return System.currentTimeMillis() - start;
    }

    private void customs() throws Exception {
        // A stream long enough for every member to ack twice by the count (AckPolicy), plus the idle acks at its end;
        // the CI smoke sends fewer (zkion.scale.stream), its figures not judged.
        int stream = Integer.getInteger("zkion.scale.stream", 0);
        int plain = stream > 0 ? stream : 2 * AckPolicy.entriesBehind(c.members);

        res.put("plainStream", plain);
        AliveVersions v0 = AliveVersions.read(admin, root); // Before the counters: its reads are not the stream's.
        ZkCounters c0 = ZkCounters.read(zk);
        CpuWindow cpu = new CpuWindow(c.jvms, zk);
        long id = 0;

        // Steps of the stream (send until every member has it) as long as a member's idle ack waits: in such a lull a
        // member whose idle check falls in it acks once more, beyond its acks by count (AckPolicy).
        long longestStepNanos = 0;
        int idleLongSteps = 0;

        for (int i = 0; i < plain; i++) {
            long t0 = System.nanoTime();

            c.deliver(++id, false);

            long step = System.nanoTime() - t0;

            longestStepNanos = Math.max(longestStepNanos, step);
            idleLongSteps += step >= AckPolicy.IDLE_MS * 1_000_000L ? 1 : 0;

            // Which steps are long, and when: beside the members' logs (epoch ms), whether acks by count, a trim or a
            // lull in the stream lines up with them.
            if (step >= 1_000_000_000L) {
                System.out.println("[" + shape + "] stream step " + (i + 1) + " of " + plain + " took "
                    + round(step / 1e6) + " ms, ending at " + System.currentTimeMillis() + "; log entries now "
                    + admin.checkExists().forPath(root + "/log").getNumChildren());
            }

            if (!res.containsKey("customEntryBytes"))
                entryBytes();
        }

        res.put("streamLongestStepMs", round(longestStepNanos / 1e6));
        res.put("streamStepsOfIdleAckLength", idleLongSteps);

        // What one delivery costs: every member JVM's CPU over the stream, a member and a message at a time, and the
        // servers' for each message; the floor's fan-out is weighed so too (FloorRun).
        cpu.close();
        res.put("customCpuUsPerDelivery", round(cpu.jvmNanos() / 1e3 / plain / c.members));
        res.put("customCpuUsPerDeliveryByThread", cpu.byThread(1e3 * plain * c.members));
        res.put("customZkCpuMsPerMessage", round(cpu.zkNanos() / 1e6 / plain));

        // Until every member acked them and the coordinator trimmed them: their acks and trims count too.
        long trimmedMs = awaitTrimmed();
        ZkCounters now = ZkCounters.read(zk);
        Map<String, Double> d = now.minus(c0);
        // wchs lists the servers' data watches; a member's watch on its elder is a child watch, in the other table,
        // which mntr's count adds (a persistent watch is in both tables, so counted twice there).
        long watches = now.values.getOrDefault("watches", 0d).longValue();

        res.put("customTrimmedMs", trimmedMs);
        // Members by how many acks they wrote over the stream: the writes per message beyond its create.
        Map<Integer, Integer> acksByMembers = AliveVersions.read(admin, root).writesSince(v0);

        res.put("streamAcksByMembers", acksByMembers);
        System.out.println("[" + shape + "] members by acks written over the stream: " + acksByMembers + "; the stream's"
            + " longest step " + res.get("streamLongestStepMs") + " ms, " + idleLongSteps + " of an idle ack's wait ("
            + AckPolicy.IDLE_MS + " ms) or more");

        res.put("customZkCounters", d);
        res.put("zkWritesPerCustom", round(d.getOrDefault("leader_zxid", 0d) / plain));
        res.put("zkRequestsPerCustom", round(d.getOrDefault("zk_packets_received", 0d) / plain));
        res.put("zkBytesPerCustomPerMember", round(ZkCounters.bytesOut(d) / plain / c.members));
        res.put("zkWatches", watches);
        res.put("zkWatchRegistrations", now.values.getOrDefault("zk_watch_count", 0d).longValue());
        res.put("zkWatchesPerMember", round((double)watches / c.members));

        List<Long> lat = new ArrayList<>();
        List<Long> acked = new ArrayList<>();
        long cpu0 = MemberProcess.cpuOf(List.of(c.crd));

        List<Long> plainLat = new ArrayList<>();
        List<Long> ackedGot = new ArrayList<>();
        Map<String, List<Long>> jvmLast = new TreeMap<>();
        Map<String, List<Long>> jvmFirst = new TreeMap<>();
        Map<String, Integer> lastJvm = new TreeMap<>();
        AckTrace trace = AckTrace.ON ? new AckTrace(admin, root) : null;

        for (int i = 0; i < settings.messages; i++) {
            boolean ack = i % 10 == 9; // A tenth need Ignite's ack, as its exchange and metastorage messages do.
            long[] t = c.deliver(++id, ack);

            lat.add(t[0]);

            if (ack) {
                acked.add(t[1]);
                ackedGot.add(t[0]);

                if (trace != null)
                    trace.trace(c.lastSent, t);
            }
            else {
                plainLat.add(t[0]);
                spread(c.lastSpread, jvmLast, jvmFirst, lastJvm);
            }
        }

        // The figures above take every message's delivery, those awaiting acks among them: each kind apart too.
        res.put("plainCustomP50Ms", ms(Percentiles.of(plainLat, 50)));
        res.put("plainCustomP99Ms", ms(Percentiles.of(plainLat, 99)));
        res.put("ackedCustomDeliveredP50Ms", ms(Percentiles.of(ackedGot, 50)));
        res.put("ackedCustomDeliveredP99Ms", ms(Percentiles.of(ackedGot, 99)));

        if (trace != null) {
            res.put("ackedCustomTraceP50Ms", trace.medians());
            res.put("ackedCustomTraceAcksWritten", trace.acksWrittenMedian());
        }

        // Where a plain message's wait for its last member goes: each JVM's last and first member, and which JVM was
        // last how often (every JVM shares the machine's cores with the others, and with ZooKeeper's servers).
        res.put("customJvmLastP50Ms", percentiles(jvmLast, 50));
        res.put("customJvmLastP99Ms", percentiles(jvmLast, 99));
        res.put("customJvmFirstP50Ms", percentiles(jvmFirst, 50));
        res.put("customLastJvm", lastJvm);

        long cpu1 = MemberProcess.cpuOf(List.of(c.crd));
        int events = settings.messages + acked.size();

        // Every timed message in the order sent (each tenth awaits acks): which ones the high percentiles are.
        res.put("customEachMs", lat.stream().map(ShapeRun::ms).collect(java.util.stream.Collectors.toList()));
        res.put("customP50Ms", ms(Percentiles.of(lat, 50)));
        res.put("customP90Ms", ms(Percentiles.of(lat, 90)));
        res.put("customP99Ms", ms(Percentiles.of(lat, 99)));
        res.put("ackedCustomP50Ms", ms(Percentiles.of(acked, 50)));
        res.put("ackedCustomP99Ms", ms(Percentiles.of(acked, 99)));
        res.put("coordinatorCpuMsPerEvent", Math.round((cpu1 - cpu0) / 1e4 / events) / 100.0);
    }

    private static void spread(Map<String, long[]> s, Map<String, List<Long>> last, Map<String, List<Long>> first,
        Map<String, Integer> lastJvm) {
        String slowest = null;

        for (Map.Entry<String, long[]> e : s.entrySet()) {
            last.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()[0]);
            first.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()[1]);

            if (slowest == null || e.getValue()[0] > s.get(slowest)[0])
                slowest = e.getKey();
        }

        if (slowest != null)
            lastJvm.merge(slowest, 1, Integer::sum);
    }

    private static Map<String, Double> percentiles(Map<String, List<Long>> byJvm, int p) {
        Map<String, Double> out = new TreeMap<>();

        byJvm.forEach((jvm, l) -> out.put(jvm, ms(Percentiles.of(l, p))));

        return out;
    }

    /**
     * ZooKeeper's requests and bytes a second while nothing happens, once the messages' idle acks are in: what the
     * cluster costs the ensemble at rest. Sessions' pings are among them.
     */
    private void idle() throws Exception {
        // Until the log is empty: the last message's ack entry waits for the members' idle acks, 3 to 6 s.
        long end = System.currentTimeMillis() + 30_000;

        while (admin.checkExists().forPath(root + "/log").getNumChildren() > 0 && System.currentTimeMillis() < end)
            Thread.sleep(100);

        ZkCounters c0 = ZkCounters.read(zk);
        long t0 = System.nanoTime();

        Thread.sleep(10_000);

        Map<String, Double> d = ZkCounters.read(zk).minus(c0);
        double secs = (System.nanoTime() - t0) / 1e9;

        res.put("idleZkRequestsPerSec", round(d.getOrDefault("zk_packets_received", 0d) / secs));
        res.put("idleZkWritesPerSec", round(d.getOrDefault("leader_zxid", 0d) / secs));
        res.put("idleZkBytesOutPerSec", Math.round(ZkCounters.bytesOut(d) / secs));
    }

    /** Keeps the size of the newest log entry: the message just delivered, unless the coordinator trimmed it. */
    private void entryBytes() throws Exception {
        List<String> names = admin.getChildren().forPath(root + "/log");

        if (names.isEmpty())
            return;

        try {
            res.put("customEntryBytes", admin.getData().forPath(root + "/log/" + newest(names)).length);
        }
        catch (org.apache.zookeeper.KeeperException.NoNodeException trimmed) {
            // The next message's.
        }
    }

    /** @return The newest of the log entries {@code names}, by position: their epoch, then ZooKeeper's number. */
    static String newest(List<String> names) {
        return Collections.max(names, Comparator.comparingLong(ZkPaths::sequence));
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
