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
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;

/**
 * The floor of one shape, on the same ensemble and the same spread of JVMs, once the members are gone: the join
 * storm, the fan-out, and the fan-out with its acks of {@link FloorClients}.
 */
final class FloorRun {
    /** Set in the sequence of the ack message of a floor message that asked for acks. */
    private static final long ACK_OF = 1L << 41;

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

            long t0 = JvmTally.nowMicros();

            for (MemberProcess m : jvms)
                m.send("floor-join " + m.servers + " " + shape.members() + " " + nodeData + " " + dir);

            long last = 0;

            for (MemberProcess m : jvms)
                last = Math.max(last, Long.parseLong(m.reply("floor-joined", settings.stepTimeoutMs)[1]));

            res.put("joinStormFloorMs", ShapeRun.ms(last - t0));

            for (MemberProcess m : jvms)
                m.call("floor-watch " + fanout, "floor-watching", 60_000);

            List<Long> lat = new ArrayList<>();

            for (int seq = 1; seq <= settings.messages; seq++) {
                byte[] data = payload(seq);
                long t = JvmTally.nowMicros();

                admin.setData().forPath(fanout, data);
                lat.add(receipts.await("fgot", seq, settings.stepTimeoutMs) - t);
            }

            res.put("customFloorP50Ms", ShapeRun.ms(Percentiles.of(lat, 50)));
            res.put("customFloorP99Ms", ShapeRun.ms(Percentiles.of(lat, 99)));
            res.put("customFloorBytes", payload(1).length);

            List<Long> acked = ackedFanOuts(dir, fanout);

            res.put("ackedCustomFloorP50Ms", ShapeRun.ms(Percentiles.of(acked, 50)));
            res.put("ackedCustomFloorP99Ms", ShapeRun.ms(Percentiles.of(acked, 99)));
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
