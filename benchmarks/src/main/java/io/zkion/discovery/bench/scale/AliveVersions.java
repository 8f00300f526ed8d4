package io.zkion.discovery.bench.scale;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

/**
 * The data versions of every alive znode, to count the acks written between two snapshots: a member's ack rewrites
 * its alive znode, and nothing else does once it has joined. Tells which members acked how often in a stream, which
 * the ensemble's counters sum over all.
 */
final class AliveVersions {
    private final Map<String, Integer> versions;

    AliveVersions(Map<String, Integer> versions) {
        this.versions = versions;
    }

    static AliveVersions read(CuratorFramework admin, String root) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        String dir = root + "/alive";

        for (String name : admin.getChildren().forPath(dir)) {
            Stat s = admin.checkExists().forPath(dir + "/" + name);

            if (s != null)
                out.put(name, s.getVersion());
        }

        return new AliveVersions(out);
    }

    /** @return How many members wrote their alive znode how many times since {@code before}, for those in both. */
    Map<Integer, Integer> writesSince(AliveVersions before) {
        Map<Integer, Integer> histogram = new TreeMap<>();

        for (Map.Entry<String, Integer> e : versions.entrySet()) {
            Integer was = before.versions.get(e.getKey());

            if (was != null)
                histogram.merge(e.getValue() - was, 1, Integer::sum);
        }

        return histogram;
    }
}
