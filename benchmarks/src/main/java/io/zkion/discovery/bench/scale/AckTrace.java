package io.zkion.discovery.bench.scale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.chaos.Percentiles;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

/**
 * Where the time of a message awaiting Ignite's ack goes ({@code -Dzkion.scale.ackTrace=true}), from the servers' own
 * clocks: when each member's ack landed (its alive znode's mtime) and when the coordinator logged the ack message
 * (the newest log entry's ctime), next to the receipts. Read once every member has the ack message, before the next
 * message is sent: it lengthens the stream, not the times it reports. Servers and members share this machine's clock.
 */
final class AckTrace {
    static final boolean ON = Boolean.getBoolean("zkion.scale.ackTrace");

    private final CuratorFramework admin;
    private final String root;
    private final Map<String, List<Long>> phases = new LinkedHashMap<>();
    private final List<Long> written = new ArrayList<>();

    AckTrace(CuratorFramework admin, String root) {
        this.admin = admin;
        this.root = root;
    }

    /**
     * @param sent When the message was sent (wall-clock micros).
     * @param t Micros from then until every member had it, and until every member had its ack message.
     */
    void trace(long sent, long[] t) throws Exception {
        List<String> log = admin.getChildren().forPath(root + "/log");
        Stat entry = log.isEmpty() ? null : admin.checkExists().forPath(root + "/log/" + ShapeRun.newest(log));
        // An alive znode written after the ack entry holds a later ack (by count, or idle), not this message's.
        long logged = entry == null ? Long.MAX_VALUE : entry.getCtime() * 1000;
        List<Long> writes = new ArrayList<>();

        for (String n : admin.getChildren().forPath(root + "/alive")) {
            Stat s = admin.checkExists().forPath(root + "/alive/" + n);

            if (s != null && s.getMtime() * 1000 >= sent && s.getMtime() * 1000 <= logged)
                writes.add(s.getMtime() * 1000 - sent);
        }

        Collections.sort(writes);
        add("gotEverywhere", t[0]);

        if (!writes.isEmpty()) {
            add("firstAckWritten", writes.get(0));
            add("halfAcksWritten", writes.get(writes.size() / 2));
            add("lastAckWritten", writes.get(writes.size() - 1));
        }

        written.add((long)writes.size());

        if (entry != null)
            add("ackLogged", logged - sent);

        add("ackEverywhere", t[1]);
    }

    private void add(String phase, long micros) {
        phases.computeIfAbsent(phase, k -> new ArrayList<>()).add(micros);
    }

    /** @return How many alive znodes were written between a traced message's send and its ack entry, median. */
    long acksWrittenMedian() {
        return written.isEmpty() ? 0 : Percentiles.of(written, 50);
    }

    /** @return Each phase's median over the traced messages, in ms from the send. */
    Map<String, Double> medians() {
        Map<String, Double> out = new LinkedHashMap<>();

        phases.forEach((k, v) -> out.put(k, ShapeRun.ms(Percentiles.of(v, 50))));

        return out;
    }
}
