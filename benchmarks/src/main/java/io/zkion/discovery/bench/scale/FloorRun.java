package io.zkion.discovery.bench.scale;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import io.zkion.discovery.chaos.Percentiles;
import io.zkion.discovery.chaos.ZkEnsemble;
import org.apache.curator.framework.CuratorFramework;

/**
 * The floor of one shape, on the same ensemble and the same spread of JVMs, once the members are gone: the join
 * storm and the fan-out of {@link FloorClients}.
 */
final class FloorRun {
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
        }
        finally {
            for (MemberProcess m : jvms)
                m.close();

            admin.delete().quietly().deletingChildrenIfNeeded().forPath(base);
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
