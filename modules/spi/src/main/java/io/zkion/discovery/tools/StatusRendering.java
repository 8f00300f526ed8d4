package io.zkion.discovery.tools;

import io.zkion.discovery.tools.ClusterStatus.Alive;
import io.zkion.discovery.tools.ClusterStatus.Join;
import io.zkion.discovery.zk.ZkPaths;

/** A {@link ClusterStatus} as text for a person, or as one JSON object holding everything the text shows. */
final class StatusRendering {
    private StatusRendering() {
    }

    static String text(ClusterStatus st) {
        if (st.state == null)
            return "no cluster under " + st.root + " (no state znode)\n";

        StringBuilder sb = new StringBuilder();

        line(sb, "cluster", st.state.clusterId + " under " + st.root);
        line(sb, "health", st.problems.isEmpty() ? "healthy" : "UNHEALTHY: " + String.join("; ", st.problems));
        line(sb, "coordinator", st.state.coordinator + st.alive.stream().filter(a -> a.id.equals(st.state.coordinator)
            && a.info != null).findFirst().map(a -> " (" + who(a) + ")").orElse(""));
        line(sb, "topology", "version " + st.state.topVer + ", " + st.alive.size() + " alive (" + st.servers()
            + " servers" + (st.expect.servers > 0 ? ", " + st.expect.servers + " expected" : "") + ")"
            + (st.joining() == 0 ? "" : ", " + st.joining() + " of them joining"));
        line(sb, "joins", st.joins.isEmpty() ? "none pending" : st.joins.size() + " pending, the oldest "
            + st.joins.get(0).name + " for " + seconds(st.joins.get(0).ageMs));
        line(sb, "comm rounds", st.rounds.isEmpty() ? (st.roundCalls == 0 ? "none" : st.roundCalls + " call(s), no round"
            + " open yet") : "round " + st.rounds.get(0).name + " open for " + seconds(st.rounds.get(0).ageMs) + ", "
            + st.rounds.get(0).reports + " of " + st.alive.size() + " nodes reported");
        line(sb, "format", st.state.format);
        line(sb, "gate", st.gate == null ? "absent" : (st.gate.open ? "open" : "CLOSED for " + seconds(st.gateClosedMs))
            + ", " + st.gate.format);
        line(sb, "log", st.logEntries + " entries not trimmed yet"
            + (st.oldestEntryAgeMs < 0 ? "" : ", the oldest written " + seconds(st.oldestEntryAgeMs) + " ago")
            + (st.newestEntry < 0 ? "" : ", newest " + ZkPaths.entryName(st.newestEntry))
            + (st.state.logEpoch == 0 ? "" : ", epoch " + st.state.logEpoch));

        Alive slow = st.slowest();

        if (slow != null)
            line(sb, "slowest ack", slow.id + " at event " + slow.info.ack);

        for (Alive a : st.alive) {
            sb.append("  ").append(a.info == null ? a.id + "  (record unreadable)"
                : String.format("%-7s %-6s %-40s ack %-8d reads %-22s %s", a.info.order > 0 ? "#" + a.info.order : "#?",
                a.info.client ? "client" : "server", who(a), a.info.ack, String.join(",", a.info.formats), a.id))
                .append('\n');
        }

        return sb.toString();
    }

    /** @return Where a node runs and what it is, as its record says: host, consistent id, release. */
    private static String who(Alive a) {
        String cid = a.info.consistentId == null || a.info.consistentId.equals(a.info.host) ? ""
            : " " + a.info.consistentId;

        return (a.info.host == null ? "?" : a.info.host) + cid + " " + (a.info.release == null ? "release<0.2"
            : a.info.release);
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format("%-15s", label)).append(value).append('\n');
    }

    private static String seconds(long ms) {
        return ms / 1000 + " s";
    }

    static String json(ClusterStatus st) {
        StringBuilder sb = new StringBuilder("{");

        Json.field(sb, "root", st.root);

        if (st.state == null)
            return sb.append(",\"cluster\":null,\"healthy\":false,\"exitCode\":").append(st.exitCode()).append('}')
                .toString();

        sb.append(',');
        Json.field(sb, "cluster", st.state.clusterId.toString());
        sb.append(",\"healthy\":").append(st.problems.isEmpty()).append(",\"exitCode\":").append(st.exitCode())
            .append(",\"problems\":[");

        for (int i = 0; i < st.problems.size(); i++)
            sb.append(i == 0 ? "" : ",").append(Json.string(st.problems.get(i)));

        sb.append("],");
        Json.field(sb, "coordinator", String.valueOf(st.state.coordinator));
        sb.append(",\"topologyVersion\":").append(st.state.topVer).append(",\"servers\":").append(st.servers())
            .append(",\"expectServers\":").append(st.expect.servers).append(',');
        Json.field(sb, "format", st.state.format);
        sb.append(",\"gate\":");

        if (st.gate == null)
            sb.append("null");
        else {
            sb.append("{\"open\":").append(st.gate.open).append(',');
            Json.field(sb, "format", st.gate.format);
            sb.append(",\"closedMs\":").append(st.gateClosedMs).append('}');
        }

        sb.append(",\"log\":{\"entries\":").append(st.logEntries).append(",\"newest\":").append(st.newestEntry)
            .append(",\"epoch\":").append(st.state.logEpoch).append(",\"oldestAgeMs\":").append(st.oldestEntryAgeMs)
            .append("},\"joinTimeoutMs\":").append(st.expect.joinTimeoutMs).append(",\"joins\":[");

        for (int i = 0; i < st.joins.size(); i++) {
            Join j = st.joins.get(i);

            sb.append(i == 0 ? "{" : ",{");
            Json.field(sb, "name", j.name);
            sb.append(",\"ageMs\":").append(j.ageMs).append('}');
        }

        Alive slow = st.slowest();

        sb.append("],\"roundCalls\":").append(st.roundCalls).append(",\"rounds\":[");

        for (int i = 0; i < st.rounds.size(); i++) {
            ClusterStatus.Round r = st.rounds.get(i);

            sb.append(i == 0 ? "" : ",").append("{\"id\":").append(Json.string(r.name)).append(",\"reports\":")
                .append(r.reports).append(",\"ageMs\":").append(r.ageMs).append('}');
        }

        sb.append("],\"slowest\":").append(slow == null ? "null" : Json.string(slow.id.toString())).append(",\"alive\":[");

        for (int i = 0; i < st.alive.size(); i++) {
            Alive a = st.alive.get(i);

            sb.append(i == 0 ? "{" : ",{");
            Json.field(sb, "id", a.id.toString());
            sb.append(",\"readable\":").append(a.info != null);

            if (a.info != null) {
                sb.append(",\"client\":").append(a.info.client).append(",\"ack\":").append(a.info.ack)
                    .append(",\"order\":").append(a.info.order).append(',');
                Json.field(sb, "host", a.info.host);
                sb.append(',');
                Json.field(sb, "consistentId", a.info.consistentId);
                sb.append(',');
                Json.field(sb, "release", a.info.release);
                sb.append(",\"formats\":[");

                for (int k = 0; k < a.info.formats.size(); k++)
                    sb.append(k == 0 ? "" : ",").append(Json.string(a.info.formats.get(k)));

                sb.append(']');
            }

            sb.append('}');
        }

        return sb.append("]}").toString();
    }
}
