package io.zkion.discovery.bench.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;

/**
 * The member JVMs of one shape as the phases see them: who is where ({@link JvmLayout}), and what every JVM is asked
 * at once: the topology size all members see, their topology versions, their engines' states.
 */
final class SimCluster implements AutoCloseable {
    final List<MemberProcess> jvms = new ArrayList<>();
    final Receipts receipts = new Receipts();
    final ScaleSettings settings;
    final String root;
    MemberProcess crd;
    MemberProcess mass;
    MemberProcess paused;
    /** The JVM that sends the custom messages and takes the one more join: neither the coordinator nor faulted. */
    MemberProcess bulk;
    /** Members of the shape that are alive now. */
    int members;

    SimCluster(JvmLayout layout, int clusterSize, String connect, String root, ScaleSettings s) throws Exception {
        this.settings = s;
        this.root = root;

        for (JvmLayout.Part p : layout.all()) {
            jvms.add(new MemberProcess(p.name, p.servers, p.clients, clusterSize, connect, root, s.sessionTimeout, s.classPath,
                s.jvmOpts, s.logDir, receipts));
        }

        crd = jvms.get(0);
        mass = jvms.get(1);
        paused = jvms.get(2);
        bulk = jvms.get(3);
        receipts.expectJvms(jvms.size());
    }

    /** @return How many of {@code m}'s members are joined: the outage rule may have cut some off. */
    int joinedIn(MemberProcess m) throws Exception {
        for (String kv : m.call("states", "states", 60_000)[1].split(",")) {
            if (kv.startsWith("JOINED="))
                return Integer.parseInt(kv.substring(7));
        }

        return 0;
    }

    /** Takes {@code m}, with {@code joined} members still in the cluster, out of the JVMs: killed, or paused. */
    void remove(MemberProcess m, int joined) {
        jvms.remove(m);
        members -= joined;
        receipts.expectJvms(jvms.size());
    }

    /** @return When the last member of every JVM saw {@code size} nodes (wall-clock micros). */
    long awaitSize(int size) throws Exception {
        for (MemberProcess m : jvms)
            m.send("await-size " + size + " " + settings.stepTimeoutMs);

        long last = 0;

        for (MemberProcess m : jvms)
            last = Math.max(last, Long.parseLong(m.reply("size", settings.stepTimeoutMs + 10_000)[2]));

        return last;
    }

    /** @return The lowest and highest topology version any member has. */
    long[] topVerRange() throws Exception {
        long min = Long.MAX_VALUE;
        long max = 0;

        for (MemberProcess m : jvms) {
            String[] r = m.call("topver", "topver", 60_000);

            min = Math.min(min, Long.parseLong(r[1]));
            max = Math.max(max, Long.parseLong(r[2]));
        }

        return new long[] {min, max};
    }

    /** @return How many members are in each engine state (JOINED, STOPPED...). */
    Map<String, Integer> states() throws Exception {
        Map<String, Integer> res = new TreeMap<>();

        for (MemberProcess m : jvms) {
            String[] r = m.call("states", "states", 60_000);

            if (r.length > 1) {
                for (String kv : r[1].split(","))
                    res.merge(kv.split("=")[0], Integer.parseInt(kv.split("=")[1]), Integer::sum);
            }
        }

        return res;
    }

    /** @return When ZooKeeper deletes the alive znode of {@code m}'s first member: its session's expiry. */
    CompletableFuture<Long> expiryOf(MemberProcess m, CuratorFramework admin) throws Exception {
        String id = m.call("ids", "ids", 60_000)[1];
        CompletableFuture<Long> gone = new CompletableFuture<>();

        admin.checkExists().usingWatcher((Watcher)e -> {
            if (e.getType() == Watcher.Event.EventType.NodeDeleted)
                gone.complete(JvmTally.nowMicros());
        }).forPath(root + "/alive/" + id);

        return gone;
    }

    @Override public void close() throws InterruptedException {
        for (MemberProcess m : jvms)
            m.close();
    }
}
