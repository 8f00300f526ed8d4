package io.zkion.discovery.bench.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.chaos.Percentiles;
import io.zkion.discovery.chaos.ZkEnsemble;
import org.apache.curator.framework.CuratorFramework;

/**
 * One shape's run on the shipped protocol: the join storm, one more join, custom messages with and without Ignite's
 * ack, a ZooKeeper leader stop, the mass failure of a tenth, the coordinator's failure; the ensemble's counters
 * around each. Then the same work's floor by bare Curator clients ({@link FloorRun}).
 */
final class ShapeRun {
    private final Shape shape;
    private final ZkEnsemble zk;
    private final CuratorFramework admin;
    private final ScaleSettings settings;
    private final Receipts receipts = new Receipts();
    private final Map<String, Object> res = new LinkedHashMap<>();
    private final List<MemberProcess> jvms = new ArrayList<>();
    private final String root;
    private MemberProcess crd;
    private MemberProcess mass;

    ShapeRun(Shape shape, ZkEnsemble zk, CuratorFramework admin, ScaleSettings settings) {
        this.shape = shape;
        this.zk = zk;
        this.admin = admin;
        this.settings = settings;
        this.root = "/scale-" + shape.servers + "-" + shape.clients;
    }

    Map<String, Object> run() throws Exception {
        JvmLayout layout = new JvmLayout(shape);

        res.put("members", shape.members());
        res.put("servers", shape.servers);
        res.put("clients", shape.clients);
        res.put("jvms", layout.toString());
        res.put("sessionTimeoutMs", settings.sessionTimeout);
        log("layout: " + layout);

        try {
            for (JvmLayout.Part p : layout.all()) {
                MemberProcess m = new MemberProcess(p.name, p.servers, p.clients, zk.connectString(), root,
                    settings.sessionTimeout, settings.classPath, settings.jvmOpts, settings.logDir, receipts);

                jvms.add(m);
            }

            crd = jvms.get(0);
            mass = jvms.get(1);
            receipts.expectJvms(jvms.size());

            if (!"0".equals(crd.call("start 1 0", "started", 120_000)[2]))
                throw new IllegalStateException("The first member failed to start; see " + settings.logDir);

            joinStorm();
            oneMoreJoin();
            nodeData();
            customs();
            leaderStop();
            massFailure();
            coordinatorFailure();
        }
        finally {
            for (MemberProcess m : jvms)
                m.close();
        }

        res.putAll(new FloorRun(shape, zk, admin, settings, receipts).run(settings.logDir.resolve(root.substring(1)
            + "-node-data.bin")));
        res.put("outageKept", null); // Not measured yet: the simulation has no Ignite communication for PeerProbe.
        res.put("pausedLogLength", null);

        return res;
    }

    private void joinStorm() throws Exception {
        ZkCounters c0 = ZkCounters.read(zk);
        long t0 = JvmTally.nowMicros();
        List<MemberProcess> rest = jvms.subList(1, jvms.size());

        for (MemberProcess m : rest)
            m.send("start " + m.servers + " " + m.clients);

        int failed = 0;

        for (MemberProcess m : rest)
            failed += Integer.parseInt(m.reply("started", settings.stepTimeoutMs)[2]);

        if (failed > 0)
            throw new IllegalStateException(failed + " members failed to start; see " + settings.logDir);

        long last = awaitSize(jvms, shape.members());

        res.put("joinStormMs", ms(last - t0));
        putCounters("storm", ZkCounters.read(zk).minus(c0), 1);
        topVers("joinStormTopVer");
    }

    private void oneMoreJoin() throws Exception {
        long t0 = JvmTally.nowMicros();

        jvms.get(2).call("start 1 0", "started", settings.stepTimeoutMs);
        res.put("oneJoinMs", ms(awaitSize(jvms, shape.members() + 1) - t0));
    }

    /** Keeps one member's data znode for the floor, which writes the same bytes. */
    private void nodeData() throws Exception {
        String dir = root + "/nodes";
        String child = admin.getChildren().forPath(dir).get(0);
        byte[] data = admin.getData().forPath(dir + "/" + child);

        Files.write(settings.logDir.resolve(root.substring(1) + "-node-data.bin"), data);
        res.put("nodeDataBytes", data.length);
    }

    private void customs() throws Exception {
        MemberProcess sender = jvms.get(2);
        int plain = Math.max(10, settings.messages / 5);
        ZkCounters c0 = ZkCounters.read(zk);
        long id = 0;

        for (int i = 0; i < plain; i++)
            deliver(sender, ++id, false);

        putCounters("custom", ZkCounters.read(zk).minus(c0), plain);

        List<Long> lat = new ArrayList<>();
        List<Long> acked = new ArrayList<>();
        long cpu0 = Long.parseLong(crd.call("cpu", "cpu", 10_000)[1]);

        for (int i = 0; i < settings.messages; i++) {
            boolean ack = i % 10 == 9; // A tenth need Ignite's ack, as its exchange and metastorage messages do.
            long[] t = deliver(sender, ++id, ack);

            lat.add(t[0]);

            if (ack)
                acked.add(t[1]);
        }

        long cpu1 = Long.parseLong(crd.call("cpu", "cpu", 10_000)[1]);
        int events = settings.messages + acked.size();

        res.put("customP50Ms", ms(Percentiles.of(lat, 50)));
        res.put("customP90Ms", ms(Percentiles.of(lat, 90)));
        res.put("customP99Ms", ms(Percentiles.of(lat, 99)));
        res.put("ackedCustomP50Ms", ms(Percentiles.of(acked, 50)));
        res.put("ackedCustomP99Ms", ms(Percentiles.of(acked, 99)));
        res.put("coordinatorCpuMsPerEvent", Math.round((cpu1 - cpu0) / 1e4 / events) / 100.0);
    }

    /** @return Micros from the send until every member had it, and (if it needs one) until every member had its ack. */
    private long[] deliver(MemberProcess sender, long id, boolean ack) throws Exception {
        long sent = Long.parseLong(sender.call("send " + id + " " + (ack ? 1 : 0), "sent", 10_000)[2]);
        long got = receipts.await("got", id, settings.stepTimeoutMs);
        long acked = ack ? receipts.await("acked", id, settings.stepTimeoutMs) : got;

        return new long[] {got - sent, acked - sent};
    }

    /** A ZooKeeper leader stop: the ensemble elects another within seconds, and no member may leave the topology. */
    private void leaderStop() throws Exception {
        long[] before = topVerRange();
        int leader = -1;

        for (int i = 0; i < ZkEnsemble.SIZE && leader < 0; i++) {
            String s = zk.fourLetters(i, "srvr");

            if (s != null && s.contains("Mode: leader"))
                leader = i;
        }

        zk.kill(leader);
        Thread.sleep(settings.sessionTimeout);
        zk.start(leader);
        zk.awaitServing(leader, 120_000);
        awaitSize(jvms, shape.members() + 1);

        long[] after = topVerRange();

        res.put("leaderStopTopologyChanges", after[1] - before[1]);
    }

    private void massFailure() throws Exception {
        int killed = mass.members();

        mass.kill();
        jvms.remove(mass);

        long t0 = JvmTally.nowMicros();

        res.put("massFailureCount", killed);
        res.put("massFailureMs", ms(awaitSize(jvms, shape.members() + 1 - killed) - t0));
    }

    private void coordinatorFailure() throws Exception {
        String[] c = crd.call("crd", "crd", 10_000);

        if (!"1".equals(c[2]))
            throw new IllegalStateException("The coordinator " + c[1] + " is not the first member: see " + settings.logDir);

        int left = shape.members() + 1 - mass.members() - 1;

        crd.kill();
        jvms.remove(crd);

        long t0 = JvmTally.nowMicros();

        res.put("coordinatorFailoverMs", ms(awaitSize(jvms, left) - t0));
    }

    /** @return When the last member of {@code of} saw {@code size} nodes. */
    private long awaitSize(List<MemberProcess> of, int size) throws Exception {
        for (MemberProcess m : of)
            m.send("await-size " + size + " " + settings.stepTimeoutMs);

        long last = 0;

        for (MemberProcess m : of) {
            String[] r = m.reply("size", settings.stepTimeoutMs + 10_000);

            last = Math.max(last, Long.parseLong(r[2]));
        }

        return last;
    }

    private long[] topVerRange() throws Exception {
        long min = Long.MAX_VALUE;
        long max = 0;

        for (MemberProcess m : jvms) {
            String[] r = m.call("topver", "topver", 10_000);

            min = Math.min(min, Long.parseLong(r[1]));
            max = Math.max(max, Long.parseLong(r[2]));
        }

        return new long[] {min, max};
    }

    private void topVers(String key) throws Exception {
        long[] r = topVerRange();

        res.put(key, r[0] == r[1] ? (Object)r[0] : r[0] + ".." + r[1]);
    }

    private void putCounters(String phase, Map<String, Double> d, int events) {
        res.put(phase + "ZkCounters", d);

        if (phase.equals("storm")) {
            res.put("stormZkRequests", d.getOrDefault("zk_packets_received", 0d).longValue());
            res.put("stormZkMBytesOut", round(ZkCounters.bytesOut(d) / 1e6));
        }

        if (phase.equals("custom")) {
            double bytes = ZkCounters.bytesOut(d);

            res.put("zkWritesPerCustom", round(d.getOrDefault("leader_zxid", 0d) / events));
            res.put("zkRequestsPerCustom", round(d.getOrDefault("zk_packets_received", 0d) / events));
            res.put("zkBytesPerCustomPerMember", round(bytes / events / (shape.members() + 1)));
            long watches = ZkCounters.read(zk).values.getOrDefault("watches", 0d).longValue();

            res.put("zkWatches", watches);
            res.put("zkWatchesPerMember", round((double)watches / (shape.members() + 1)));
        }
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }

    private void log(String s) {
        System.out.println("[" + shape + "] " + s);
    }
}
