package io.zkion.discovery.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.msg.GateState;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;

/**
 * What an operator asks first of a live cluster, read from ZooKeeper alone: who coordinates, the topology
 * version, the alive nodes and their acks, how many log entries wait for a trim, the gate and the format. Healthy
 * means a cluster is there and the coordinator its state names is alive.
 */
final class ClusterStatus {
    /** Exit codes: healthy, a cluster that is not, and no cluster at all. */
    static final int HEALTHY = 0;
    static final int UNHEALTHY = 1;
    static final int NO_CLUSTER = 2;

    final String root;
    final ClusterState state;
    final GateState gate;
    final List<Alive> alive = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    int logEntries;
    /** The position of the newest entry (see {@link ZkPaths#sequence}), or -1 if none. */
    long newestEntry = -1;

    /** One alive node; {@code info} null when its record does not decode (a newer release's, say). */
    static final class Alive {
        final UUID id;
        final AliveInfo info;

        Alive(UUID id, AliveInfo info) {
            this.id = id;
            this.info = info;
        }
    }

    private ClusterStatus(String root, ClusterState state, GateState gate) {
        this.root = root;
        this.state = state;
        this.gate = gate;
    }

    static ClusterStatus read(ZkStore store) throws Exception {
        ZkPaths paths = store.paths();
        ControlCodec codec = new ControlCodec(StreamingZip.defaults());
        byte[] s = store.read(paths.state);

        if (s == null)
            return new ClusterStatus(paths.root, null, null);

        byte[] g = store.read(paths.gate);
        ClusterStatus st = new ClusterStatus(paths.root, codec.decodeState(s, paths.state),
            g == null ? null : codec.decodeGate(g, paths.gate));

        for (String name : store.children(paths.alive)) {
            UUID id = ZkPaths.nodeId(name);
            byte[] data = id == null ? null : store.read(paths.alive(id));

            if (data == null)
                continue;

            AliveInfo info = null;

            try {
                info = codec.decodeAlive(data, paths.alive(id));
            }
            catch (CodecException e) {
                st.problems.add("the alive record of " + id + " does not decode: " + e.getMessage());
            }

            st.alive.add(new Alive(id, info));
        }

        for (String name : store.children(paths.log)) {
            st.logEntries++;
            st.newestEntry = Math.max(st.newestEntry, ZkPaths.sequence(name));
        }

        st.judge();

        return st;
    }

    private void judge() {
        if (alive.stream().noneMatch(a -> a.id.equals(state.coordinator)))
            problems.add("the coordinator " + state.coordinator + " the state names is not alive");

        if (alive.stream().noneMatch(a -> a.info != null && !a.info.client))
            problems.add("no server node is alive");
    }

    /** @return The alive node with the lowest ack (the one trimming waits for), or null. */
    Alive slowest() {
        Alive min = null;

        for (Alive a : alive) {
            if (a.info != null && (min == null || a.info.ack < min.info.ack))
                min = a;
        }

        return min;
    }

    int exitCode() {
        return state == null ? NO_CLUSTER : problems.isEmpty() ? HEALTHY : UNHEALTHY;
    }

    /** @return The status as lines of text. */
    String text() {
        StringBuilder sb = new StringBuilder();

        if (state == null)
            return "no cluster under " + root + " (no state znode)\n";

        sb.append("cluster        ").append(state.clusterId).append(" under ").append(root).append('\n');
        sb.append("health         ").append(problems.isEmpty() ? "healthy" : "UNHEALTHY: " + String.join("; ", problems))
            .append('\n');
        sb.append("coordinator    ").append(state.coordinator).append('\n');
        long joining = alive.stream().filter(a -> a.info != null && a.info.ack == 0).count();

        sb.append("topology       version ").append(state.topVer).append(", ").append(alive.size()).append(" alive (")
            .append(alive.stream().filter(a -> a.info != null && !a.info.client && a.info.ack > 0).count())
            .append(" servers)").append(joining == 0 ? "" : ", " + joining + " of them joining").append('\n');
        sb.append("format         ").append(state.format).append('\n');
        sb.append("gate           ").append(gate == null ? "absent" : (gate.open ? "open" : "CLOSED") + ", "
            + gate.format).append('\n');
        sb.append("log            ").append(logEntries).append(" entries not trimmed yet")
            .append(newestEntry < 0 ? "" : ", newest " + ZkPaths.entryName(newestEntry))
            .append(state.logEpoch == 0 ? "" : ", epoch " + state.logEpoch).append('\n');

        Alive slow = slowest();

        if (slow != null)
            sb.append("slowest ack    ").append(slow.id).append(" at event ").append(slow.info.ack).append('\n');

        for (Alive a : alive) {
            sb.append("  ").append(a.id).append(a.info == null ? "  (record unreadable)"
                : (a.info.client ? "  client" : "  server") + "  ack " + a.info.ack + "  reads "
                + String.join(",", a.info.formats)).append('\n');
        }

        return sb.toString();
    }

    /** @return The status as one JSON object. */
    String json() {
        StringBuilder sb = new StringBuilder("{");

        Json.field(sb, "root", root);

        if (state == null)
            return sb.append(",\"cluster\":null,\"healthy\":false}").toString();

        sb.append(',');
        Json.field(sb, "cluster", state.clusterId.toString());
        sb.append(",\"healthy\":").append(problems.isEmpty()).append(",\"problems\":[");

        for (int i = 0; i < problems.size(); i++)
            sb.append(i == 0 ? "" : ",").append(Json.string(problems.get(i)));

        sb.append("],");
        Json.field(sb, "coordinator", state.coordinator.toString());
        sb.append(",\"topologyVersion\":").append(state.topVer).append(',');
        Json.field(sb, "format", state.format);
        sb.append(",\"gateOpen\":").append(gate != null && gate.open).append(",\"logEntries\":").append(logEntries)
            .append(",\"alive\":[");

        for (int i = 0; i < alive.size(); i++) {
            Alive a = alive.get(i);

            sb.append(i == 0 ? "{" : ",{");
            Json.field(sb, "id", a.id.toString());

            if (a.info != null)
                sb.append(",\"client\":").append(a.info.client).append(",\"ack\":").append(a.info.ack);

            sb.append('}');
        }

        return sb.append("]}").toString();
    }
}
