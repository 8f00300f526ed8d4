package io.zkion.discovery.bench.scale;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.zip.DeflaterOutputStream;
import io.zkion.discovery.chaos.Percentiles;
import io.zkion.discovery.chaos.ZkEnsemble;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;

/**
 * The floor of one shape, on the same ensemble and the same spread of JVMs, once the members are gone: the join
 * storm, the fan-out, and the fan-out with its acks of {@link FloorClients}.
 */
final class FloorRun {
    /** Set in the sequence of the ack message of a floor message that asked for acks. */
    private static final long ACK_OF = 1L << 41;
    /** Set in the sequence of a floor log entry. */
    private static final long LOG_ENTRY = 1L << 42;
    /** Old entries each trimming create deletes, as a coordinator's trim deletes acked entries with the next one. */
    private static final int DELETES = 10;

    private final Shape shape;
    private final ZkEnsemble zk;
    private final CuratorFramework admin;
    private final ScaleSettings settings;
    private final Receipts receipts;

    FloorRun(Shape shape, ZkEnsemble zk, CuratorFramework admin, ScaleSettings settings, Receipts receipts) {
        this.shape = shape;
        this.zk = zk;
        this.admin = admin;
        this.settings = settings;
        this.receipts = receipts;
    }

    /** @param nodeData A file holding one member's data znode, as ZkIon wrote it. */
    Map<String, Object> run(Path nodeData) throws Exception {
        Map<String, Object> res = new LinkedHashMap<>();
        String base = "/floor-" + shape.servers + "-" + shape.clients;
        String dir = base + "/storm";
        String fanout = base + "/fanout";
        int n = Math.max(1, (shape.members() + JvmLayout.PER_JVM - 1) / JvmLayout.PER_JVM);
        List<MemberProcess> jvms = new ArrayList<>();

        admin.create().creatingParentsIfNeeded().forPath(dir);
        admin.create().forPath(fanout, payload(0));

        try {
            for (int i = 0; i < n; i++) {
                int count = shape.members() / n + (i < shape.members() % n ? 1 : 0);

                jvms.add(new MemberProcess("floor" + i, count, 0, 0, zk.connectString(), base, settings.sessionTimeout,
                    settings.classPath, settings.jvmOpts, settings.logDir, receipts));
            }

            receipts.expectJvms(n);

            CpuWindow stormCpu = new CpuWindow(jvms, zk);
            long t0 = JvmTally.nowMicros();

            for (MemberProcess m : jvms)
                m.send("floor-join " + m.servers + " " + shape.members() + " " + nodeData + " " + dir);

            long last = 0;

            for (MemberProcess m : jvms)
                last = Math.max(last, Long.parseLong(m.reply("floor-joined", settings.stepTimeoutMs)[1]));

            res.put("joinStormFloorMs", ShapeRun.ms(last - t0));
            // Each floor session's CPU for its storm, next to each member's (ShapeRun's stormCpuMsPerMember).
            stormCpu.close();
            res.put("joinStormFloorCpuMsPerMember", ShapeRun.round(stormCpu.jvmNanos() / 1e6 / shape.members()));
            res.put("joinStormFloorCpuMsPerMemberByThread", stormCpu.byThread(1e6 * shape.members()));
            res.put("joinStormFloorZkServersCpuMs", Math.round(stormCpu.zkNanos() / 1e6));

            for (MemberProcess m : jvms)
                m.call("floor-watch " + fanout, "floor-watching", 60_000);

            List<Long> lat = new ArrayList<>();
            CpuWindow cpu = new CpuWindow(jvms, zk);

            for (int seq = 1; seq <= settings.messages; seq++) {
                byte[] data = payload(seq);
                long t = JvmTally.nowMicros();

                admin.setData().forPath(fanout, data);
                lat.add(receipts.await("fgot", seq, settings.stepTimeoutMs) - t);
            }

            cpu.close();
            res.put("customFloorCpuUsPerDelivery", ShapeRun.round(cpu.jvmNanos() / 1e3 / settings.messages / shape.members()));
            res.put("customFloorCpuUsPerDeliveryByThread", cpu.byThread(1e3 * settings.messages * shape.members()));
            res.put("customFloorZkCpuMsPerMessage", ShapeRun.round(cpu.zkNanos() / 1e6 / settings.messages));

            res.put("customFloorP50Ms", ShapeRun.ms(Percentiles.of(lat, 50)));
            res.put("customFloorP99Ms", ShapeRun.ms(Percentiles.of(lat, 99)));
            res.put("customFloorBytes", payload(1).length);

            List<Long> acked = ackedFanOuts(dir, fanout);

            res.put("ackedCustomFloorP50Ms", ShapeRun.ms(Percentiles.of(acked, 50)));
            res.put("ackedCustomFloorP99Ms", ShapeRun.ms(Percentiles.of(acked, 99)));

            if (Boolean.getBoolean("zkion.scale.floorLog")) {
                // The old entries the creates delete, made before the sessions watch: their creation is no news.
                // Those of unwatched/ no session watches: deleting them costs ZooKeeper the write alone.
                oldEntries(base + "/log");
                oldEntries(base + "/unwatched");
                admin.create().forPath(base + "/next");

                for (MemberProcess m : jvms) {
                    m.call("floor-log " + base + "/log", "floor-logging", 60_000);
                    m.call("floor-next " + base + "/next", "floor-nexting", 60_000);
                }

                res.putAll(logEntries(base + "/log", base + "/unwatched", fanout, base + "/next"));
            }
        }
        finally {
            for (MemberProcess m : jvms)
                m.close();

            admin.delete().quietly().deletingChildrenIfNeeded().forPath(base);
        }

        return res;
    }

    /**
     * The floor of a message Ignite awaits the ack of, as many as the run times (a tenth of its messages): the
     * message's fan-out, every session's ack (a write each), one watcher that has seen them all and writes the ack
     * message, and that one's fan-out. The watcher counts the notifications and reads none: least work.
     *
     * @return Each one's time, from the first write until every session had read the ack message (micros).
     */
    private List<Long> ackedFanOuts(String dir, String fanout) throws Exception {
        Semaphore written = new Semaphore(0);
        Watcher w = e -> {
            if (e.getType() == Watcher.Event.EventType.NodeDataChanged)
                written.release();
        };
        List<Long> lat = new ArrayList<>();

        admin.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(w).forPath(dir);

        try {
            for (long k = 1; k <= Math.max(1, settings.messages / 10); k++) {
                long t = JvmTally.nowMicros();

                admin.setData().forPath(fanout, payload(FloorClients.ASKS_ACK | k));

                if (!written.tryAcquire(shape.members(), settings.stepTimeoutMs, TimeUnit.MILLISECONDS))
                    throw new IllegalStateException("Not every floor session acked message " + k);

                admin.setData().forPath(fanout, payload(ACK_OF | k));
                lat.add(receipts.await("fgot", ACK_OF | k, settings.stepTimeoutMs) - t);
            }
        }
        finally {
            admin.watchers().remove(w).quietly().forPath(dir);
        }

        return lat;
    }

    /** Creates {@code dir} with as many old entries as {@link #logEntries} may delete there, a hundred a commit. */
    private void oldEntries(String dir) throws Exception {
        admin.create().forPath(dir);

        List<CuratorOp> ops = new ArrayList<>();

        for (int i = 1; i <= DELETES * settings.messages; i++) {
            ops.add(admin.transactionOp().create().forPath(dir + "/old-" + i, payload(0)));

            if (ops.size() == 100 || i == DELETES * settings.messages) {
                admin.transaction().forOperations(ops);
                ops.clear();
            }
        }
    }

    /**
     * Whether deleting old entries with a new one costs the members who watch the log recursively, in turn: a
     * {@code multi} that creates an entry alone; one that also deletes {@link #DELETES} old ones, as a trim that
     * publishes an ack does today; the create followed at once by a second {@code multi} of the deletes, as a trim
     * split in two commits would; the create with as many deletes of entries no session watches, which tells
     * the notifications of a delete from its write; and that commit with the entry's bytes also written to the
     * fan-out's znode, which the sessions read instead of watching the log: a log whose members watch one head znode;
     * and the create of the entry each session watches by name, with the unwatched deletes: a log whose members watch
     * the next entry alone; and the create with one watched delete, as ZkIon's trims delete about one entry per
     * message. Each is timed until every session read the new entry; taking them in turn lets a drift of the machine
     * fall on all seven.
     */
    private Map<String, Object> logEntries(String dir, String unwatched, String head, String next) throws Exception {
        String[] names = {"logFloorCreate", "logFloorCreateAndDeletes", "logFloorCreateThenDeletes",
            "logFloorCreateAndUnwatchedDeletes", "logFloorHead", "logFloorNext", "logFloorCreateAndOneDelete"};
        List<List<Long>> lat = new ArrayList<>();

        for (int i = 0; i < names.length; i++)
            lat.add(new ArrayList<>());

        int old = 0;
        int oldUnwatched = 0;
        int nextEntry = 0;

        for (long k = 1; k <= settings.messages; k++) {
            int kind = (int)(k % names.length);
            long seq = LOG_ENTRY | k;
            List<CuratorOp> first = new ArrayList<>();
            List<CuratorOp> deletes = new ArrayList<>();

            String entry = kind == 5 ? next + "/x-" + ++nextEntry : (kind == 4 ? unwatched : dir) + "/e-" + seq;

            first.add(admin.transactionOp().create().forPath(entry, payload(seq)));

            if (kind == 4)
                first.add(admin.transactionOp().setData().forPath(head, payload(seq)));

            for (int i = 0; kind > 0 && i < (kind == 6 ? 1 : DELETES); i++) {
                String path = kind >= 3 && kind <= 5 ? unwatched + "/old-" + ++oldUnwatched : dir + "/old-" + ++old;

                deletes.add(admin.transactionOp().delete().forPath(path));
            }

            if (kind != 2)
                first.addAll(deletes);

            long t = JvmTally.nowMicros();

            admin.transaction().forOperations(first);

            if (kind == 2)
                admin.transaction().forOperations(deletes);

            lat.get(kind).add(receipts.await("fgot", seq, settings.stepTimeoutMs) - t);
        }

        Map<String, Object> res = new LinkedHashMap<>();

        for (int kind = 0; kind < names.length; kind++) {
            res.put(names[kind] + "P50Ms", ShapeRun.ms(Percentiles.of(lat.get(kind), 50)));
            res.put(names[kind] + "P99Ms", ShapeRun.ms(Percentiles.of(lat.get(kind), 99)));
        }

        return res;
    }

    /** A write the size of a logged custom message: the message's serialized form, deflated, after its sequence. */
    private static byte[] payload(long seq) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        bytes.write(ByteBuffer.allocate(8).putLong(seq).array());

        try (ObjectOutputStream out = new ObjectOutputStream(new DeflaterOutputStream(bytes))) {
            out.writeObject(new SimMessage(1, false));
        }

        return bytes.toByteArray();
    }
}
