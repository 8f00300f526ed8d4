package io.zkion.discovery.tools;

import java.util.ArrayList;
import java.util.Comparator;
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
import org.apache.zookeeper.data.Stat;

/**
 * What an operator asks first of a live cluster, read from ZooKeeper alone: who coordinates, the topology
 * version, the alive nodes and their acks, the pending joins, how many log entries wait for a trim and since when,
 * the gate and the format. Healthy means a cluster is there, the coordinator its state names is alive, as many
 * servers as expected are in, and no join has waited past its timeout. Ages are from ZooKeeper's clock to this
 * machine's: a skew between the two shows in them.
 */
final class ClusterStatus {
    /** What the operator expects of a healthy cluster. */
    static final class Expectations {
        /** Servers that must be in; 0 for any number above none. */
        final int servers;
        /** How long a join may wait before it counts as stuck, ms. */
        final long joinTimeoutMs;

        Expectations(int servers, long joinTimeoutMs) {
            this.servers = servers;
            this.joinTimeoutMs = joinTimeoutMs;
        }
    }

    final String root;
    final Expectations expect;
    final ClusterState state;
    final GateState gate;
    /** How long the gate has been closed (since its znode last changed), ms; -1 when it is open or absent. */
    long gateClosedMs = -1;
    final List<Alive> alive = new ArrayList<>();
    /** The join requests not answered yet, oldest first. */
    final List<Join> joins = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    /** Communication failure rounds open (normally at most one): name, reports in, age. */
    final List<Round> rounds = new ArrayList<>();
    /** Calls for a round not taken by one yet. */
    int roundCalls;
    int logEntries;
    /** The position of the newest entry (see {@link ZkPaths#sequence}), or -1 if none. */
    long newestEntry = -1;
    /** How long ago the oldest entry not trimmed yet was written, ms; -1 if none. */
    long oldestEntryAgeMs = -1;

    /** One alive node; {@code info} null when its record does not decode (a newer release's, say). */
    static final class Alive {
        final UUID id;
        final AliveInfo info;

        Alive(UUID id, AliveInfo info) {
            this.id = id;
            this.info = info;
        }

        boolean server() {
            return info != null && !info.client && info.ack > 0;
        }
    }

    /** A communication failure round open: its id, the reports in, how long since it opened. */
    static final class Round {
        final String name;
        final int reports;
        final long ageMs;

        Round(String name, int reports, long ageMs) {
            this.name = name;
            this.reports = reports;
            this.ageMs = ageMs;
        }
    }

    /** A join request waiting for the coordinator's answer. */
    static final class Join {
        final String name;
        final long ageMs;

        Join(String name, long ageMs) {
            this.name = name;
            this.ageMs = ageMs;
        }
    }

    private ClusterStatus(String root, Expectations expect, ClusterState state, GateState gate) {
        this.root = root;
        this.expect = expect;
        this.state = state;
        this.gate = gate;
    }

    static ClusterStatus read(ZkStore store, Expectations expect, long now) throws Exception {
        ZkPaths paths = store.paths();
        ControlCodec codec = new ControlCodec(StreamingZip.defaults());
        byte[] s = store.read(paths.state);

        if (s == null)
            return new ClusterStatus(paths.root, expect, null, null);

        Stat gateStat = new Stat();
        byte[] g = store.read(paths.gate, gateStat);
        ClusterStatus st = new ClusterStatus(paths.root, expect, codec.decodeState(s, paths.state),
            g == null ? null : codec.decodeGate(g, paths.gate));

        if (st.gate != null && !st.gate.open)
            st.gateClosedMs = Math.max(0, now - gateStat.getMtime());

        st.readAlive(store, codec);
        st.readJoins(store, now);
        st.readRounds(store, now);
        st.readLog(store, now);
        st.judge();

        return st;
    }

    private void readAlive(ZkStore store, ControlCodec codec) throws Exception {
        ZkPaths paths = store.paths();

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
                problems.add("the alive record of " + id + " does not decode: " + e.getMessage());
            }

            alive.add(new Alive(id, info));
        }

        // In join order; nodes still joining (no order yet) and unreadable records last.
        alive.sort(Comparator.comparingLong(a -> a.info == null || a.info.order == 0 ? Long.MAX_VALUE : a.info.order));
    }

    private void readJoins(ZkStore store, long now) throws Exception {
        String dir = store.paths().join;

        for (String name : store.children(dir)) {
            Stat stat = store.client().checkExists().forPath(dir + "/" + name);

            if (stat != null) // Else answered meanwhile.
                joins.add(new Join(name, Math.max(0, now - stat.getCtime())));
        }

        joins.sort(Comparator.comparingLong((Join j) -> j.ageMs).reversed());
    }

    private void readRounds(ZkStore store, long now) throws Exception {
        String dir = store.paths().comm;

        for (String name : store.children(dir)) {
            if (ZkPaths.isCommAsk(name))
                roundCalls++;
            else {
                Stat stat = store.client().checkExists().forPath(dir + "/" + name);

                if (stat != null) // Else decided meanwhile.
                    rounds.add(new Round(ZkPaths.roundOf(name), stat.getNumChildren(),
                        Math.max(0, now - stat.getCtime())));
            }
        }
    }

    private void readLog(ZkStore store, long now) throws Exception {
        String dir = store.paths().log;
        String oldest = null;
        long oldestSeq = Long.MAX_VALUE;

        for (String name : store.children(dir)) {
            long seq = ZkPaths.sequence(name);

            logEntries++;
            newestEntry = Math.max(newestEntry, seq);

            if (seq < oldestSeq) {
                oldestSeq = seq;
                oldest = name;
            }
        }

        Stat stat = oldest == null ? null : store.client().checkExists().forPath(dir + "/" + oldest);

        if (stat != null)
            oldestEntryAgeMs = Math.max(0, now - stat.getCtime());
    }

    private void judge() {
        if (alive.stream().noneMatch(a -> a.id.equals(state.coordinator)))
            problems.add("the coordinator " + state.coordinator + " the state names is not alive");

        long servers = servers();

        if (servers == 0)
            problems.add("no server node is alive");
        else if (servers < expect.servers)
            problems.add(servers + " server(s) in the cluster, " + expect.servers + " expected");

        for (Join j : joins) {
            if (j.ageMs > expect.joinTimeoutMs) {
                problems.add("the join of " + j.name + " has waited " + j.ageMs / 1000 + " s, past the join timeout of "
                    + expect.joinTimeoutMs / 1000 + " s");
            }
        }
    }

    /** @return The servers in the cluster: alive, and past their join. */
    long servers() {
        return alive.stream().filter(Alive::server).count();
    }

    /** @return The alive nodes still joining (ack 0). */
    long joining() {
        return alive.stream().filter(a -> a.info != null && a.info.ack == 0).count();
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
        return state == null ? ExitCode.NO_CLUSTER : problems.isEmpty() ? ExitCode.HEALTHY : ExitCode.UNHEALTHY;
    }
}
