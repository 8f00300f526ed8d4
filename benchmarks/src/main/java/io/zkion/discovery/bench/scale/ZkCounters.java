package io.zkion.discovery.bench.scale;

import java.util.Map;
import java.util.TreeMap;
import io.zkion.discovery.chaos.ZkEnsemble;

/**
 * The ensemble's own counters at one moment, summed over its servers: {@code mntr}'s numbers, the watches of
 * {@code wchs}, and the leader's zxid of {@code srvr}, whose growth within one epoch counts every write.
 */
final class ZkCounters {
    final Map<String, Double> values;

    private ZkCounters(Map<String, Double> values) {
        this.values = values;
    }

    static ZkCounters read(ZkEnsemble zk) {
        Map<String, Double> v = new TreeMap<>();

        for (int i = 0; i < ZkEnsemble.SIZE; i++) {
            String mntr = zk.fourLetters(i, "mntr");

            if (mntr != null) {
                for (String line : mntr.split("\n")) {
                    String[] kv = line.split("\t");

                    if (kv.length == 2) {
                        try {
                            v.merge(kv[0], Double.parseDouble(kv[1]), Double::sum);
                        }
                        catch (NumberFormatException ignored) {
                            // Not a number: the version, the state.
                        }
                    }
                }
            }

            String wchs = zk.fourLetters(i, "wchs");

            if (wchs != null && wchs.contains("Total watches:"))
                v.merge("watches", Double.parseDouble(wchs.substring(wchs.indexOf(':') + 1).trim()), Double::sum);

            String srvr = zk.fourLetters(i, "srvr");

            if (srvr != null && srvr.contains("Mode: leader")) {
                for (String line : srvr.split("\n")) {
                    if (line.startsWith("Zxid: "))
                        v.put("leader_zxid", (double)(Long.decode(line.substring(6).trim()) & 0xffffffffL));
                }
            }
        }

        return new ZkCounters(v);
    }

    /**
     * @return What grew from {@code before} to this, of the counters a report keeps: writes (the leader's zxid),
     *      requests and replies, bytes out (replies and watch notifications) and in, notifications by kind, and reads
     *      and writes under the run's root.
     */
    Map<String, Double> minus(ZkCounters before) {
        Map<String, Double> d = new TreeMap<>();

        values.forEach((k, x) -> {
            if (KEPT.contains(k) || k.startsWith("zk_cnt_") && k.endsWith("_per_namespace") && !k.contains("zookeeper"))
                d.put(k, x - before.values.getOrDefault(k, 0d));
        });

        return d;
    }

    private static final java.util.Set<String> KEPT = java.util.Set.of("leader_zxid", "zk_packets_received",
        "zk_packets_sent", "zk_response_bytes", "zk_watch_bytes", "zk_bytes_received_count",
        "zk_sum_node_changed_watch_count", "zk_sum_node_children_watch_count", "zk_sum_node_created_watch_count",
        "zk_sum_node_deleted_watch_count");

    /** @return Bytes the servers sent: replies and watch notifications. */
    static double bytesOut(Map<String, Double> d) {
        return d.getOrDefault("zk_response_bytes", 0d) + d.getOrDefault("zk_watch_bytes", 0d);
    }
}
