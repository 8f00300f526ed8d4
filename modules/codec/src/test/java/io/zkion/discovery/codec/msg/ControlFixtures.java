package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.event.JdkZlibEventFormat;
import io.zkion.discovery.codec.ion.Events;
import io.zkion.discovery.codec.zip.StreamingZip;

/**
 * The golden fixtures of every control record kind (the znodes beside the log: state, gate, alive, join request,
 * join answer, node data), in the envelope each is written in, and of the {@code jdk-zlib} event format. {@link #main}
 * wrote them once, at release 0.1.0 ({@link #since020} at 0.2.0); they are never regenerated: a release that changes
 * a record adds fixtures of its new version beside these, and every later build must still read these to the same
 * values.
 */
public final class ControlFixtures {
    static final String DIR = "fixtures/control/";
    static final String JDK_DIR = "fixtures/jdk-zlib/";

    private static final ClusterState STATE = new ClusterState(Events.CLUSTER, 1_700_000_000_000L, 7, 9_216, "ion-2",
        Events.node(1));

    private ControlFixtures() {
    }

    /** @return Each control fixture's name and the record it holds. */
    static Map<String, Object> records() {
        Map<String, Object> m = new LinkedHashMap<>();

        m.put("state", STATE);
        m.put("state-log-epoch-3", STATE.nextEpoch(2L << 31 | 1_073_741_900L));
        m.put("gate-open", new GateState(true, "ion-2"));
        m.put("gate-closed-log-epoch-3", new GateState(false, "ion-1", 3));
        m.put("alive", new AliveInfo(false, Arrays.asList("ion-2", "ion-1", "jdk-zlib"), 9_217));
        m.put("alive-client-joining", new AliveInfo(true, Arrays.asList("ion-1"), 0));
        m.put("join-request", new JoinRequest(Events.node(4), false, Arrays.asList("ion-1", "jdk-zlib"),
            new byte[] {1, 2, 3}, new byte[] {4, 5}, new byte[] {6}));
        m.put("join-request-by-reference", new JoinRequest(Events.node(5), true, Arrays.asList("ion-2", "ion-1"),
            null, null, null));
        m.put("join-answer-accepted", JoinResult.accepted(11_264, STATE, new byte[] {7, 7}, new byte[] {8},
            new byte[] {9, 9, 9}));
        m.put("join-answer-refused", JoinResult.rejected(JoinResult.Refusal.REFUSED, "Node validation failed: test"));
        m.put("join-answer-unreadable", JoinResult.rejected(JoinResult.Refusal.UNREADABLE_REQUEST,
            "The coordinator could not read the join request: test"));
        m.put("node-data", new NodeData(new byte[] {10, 11, 12}, new byte[] {13}));
        m.putAll(since020());

        return m;
    }

    /**
     * The fixtures added in release 0.2.0: the alive record with who the node is (host, consistent id, order, release),
     * a node's report in a communication-failure round, and a join answer that leaves part of the common data to a
     * znode its batch shares, with that znode.
     */
    static Map<String, Object> since020() {
        Map<String, Object> m = new LinkedHashMap<>();

        m.put("alive-node", new AliveInfo(false, Arrays.asList("ion-2", "ion-1", "jdk-zlib"), 9_217, "10.0.0.5",
            "10.0.0.5:47500", 7, "0.2.0"));
        m.put("alive-node-joining", new AliveInfo(true, Arrays.asList("ion-2"), 0, "app-3.example", "app-3:47100", 0,
            "0.2.0"));
        m.put("connectivity-report", new ConnectivityReport(Events.node(20), Events.node(1),
            Arrays.asList(Events.node(1), Events.node(2)), null));
        m.put("connectivity-report-error", new ConnectivityReport(Events.node(20), Events.node(3),
            Arrays.asList(Events.node(3)), "IgniteCheckedException: the check timed out"));
        m.put("join-answer-shared-common", JoinResult.accepted(11_265, STATE, new byte[] {7, 7}, new byte[] {8},
            new byte[] {9, 9, 9}).sharing(new byte[] {8, 1}, "/zkion/joined/shared-" + Events.node(6)));
        m.put("shared-common-data", new SharedCommonData(new byte[] {14, 15, 16}));

        return m;
    }

    static byte[] encode(ControlCodec codec, Object rec) {
        if (rec instanceof ClusterState)
            return codec.encode((ClusterState)rec);
        if (rec instanceof GateState)
            return codec.encode((GateState)rec);
        if (rec instanceof AliveInfo)
            return codec.encode((AliveInfo)rec);
        if (rec instanceof JoinRequest)
            return codec.encode((JoinRequest)rec);
        if (rec instanceof JoinResult)
            return codec.encode((JoinResult)rec);
        if (rec instanceof ConnectivityReport)
            return codec.encode((ConnectivityReport)rec);
        if (rec instanceof SharedCommonData)
            return codec.encode((SharedCommonData)rec);

        return codec.encode((NodeData)rec);
    }

    public static void main(String[] args) throws IOException {
        Path base = Paths.get(args.length > 0 ? args[0] : "modules/codec/src/test/resources/");
        ControlCodec codec = new ControlCodec(StreamingZip.defaults());

        Files.createDirectories(base.resolve(DIR));

        // Written once: a fixture already there is never rewritten, so that adding one leaves the others as they are.
        for (Map.Entry<String, Object> e : records().entrySet()) {
            Path f = base.resolve(DIR + e.getKey() + ".zkc");

            if (!Files.exists(f))
                Files.write(f, encode(codec, e.getValue()));
        }

        Files.createDirectories(base.resolve(JDK_DIR));

        JdkZlibEventFormat jdk = new JdkZlibEventFormat(JdkMarshallers.create(), StreamingZip.defaults());

        for (Map.Entry<String, io.zkion.discovery.codec.event.EventBatch> e : io.zkion.discovery.codec.ion.Fixtures
            .batches().entrySet()) {
            Path f = base.resolve(JDK_DIR + e.getKey() + ".zkj");

            if (!Files.exists(f))
                Files.write(f, jdk.encode(e.getValue()));
        }
    }
}
