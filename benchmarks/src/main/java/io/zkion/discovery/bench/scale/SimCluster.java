package io.zkion.discovery.bench.scale;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    /** Micros from the last {@link #deliver}'s send until each JVM's last and first member had it, by JVM. */
    Map<String, long[]> lastSpread = Map.of();

    /** When the last {@link #deliver} sent its message (wall-clock micros). */
    long lastSent;

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
        return joined(parse(m.call("states", "states", 60_000), new TreeMap<>()));
    }

    /** @return How many members of {@code states} are joined, whatever their outage state. */
    static int joined(Map<String, Integer> states) {
        return states.entrySet().stream().filter(e -> e.getKey().startsWith("JOINED")).mapToInt(Map.Entry::getValue)
            .sum();
    }

    /** @return Whether every joined member of {@code states} reaches ZooKeeper: no outage is being decided. */
    static boolean settled(Map<String, Integer> states) {
        return states.keySet().stream().noneMatch(k -> k.startsWith("JOINED/") && !k.equals("JOINED/CONNECTED"));
    }

    /** Takes {@code m}, with {@code joined} members still in the cluster, out of the JVMs: killed, or paused. */
    void remove(MemberProcess m, int joined) {
        jvms.remove(m);
        members -= joined;
        receipts.expectJvms(jvms.size());
    }

    /**
     * @return When the last member of every JVM saw {@code size} nodes (wall-clock micros).
     * @throws IllegalStateException If a JVM's members did not within the step timeout.
     */
    long awaitSize(int size) throws Exception {
        long last = 0;

        for (String[] r : sizeReplies(size, settings.stepTimeoutMs)) {
            if (!r[0].equals("@size"))
                throw new IllegalStateException("Not every member saw " + size + " nodes: " + String.join(" ", r));

            last = Math.max(last, Long.parseLong(r[2]));
        }

        return last;
    }

    /**
     * @return Whether every member of every JVM saw {@code size} nodes within {@code ms}; if not, how many members of
     *      each JVM see which size ({@code @size-timeout}'s answer), in {@code unsettled}.
     */
    boolean sizeWithin(int size, long ms, StringBuilder unsettled) throws Exception {
        boolean ok = true;
        int i = 0;

        for (String[] r : sizeReplies(size, ms)) {
            if (!r[0].equals("@size")) {
                ok = false;
                unsettled.append(jvms.get(i).name).append(": ").append(r.length > 2 ? r[2] : "").append("; ");
            }

            i++;
        }

        return ok;
    }

    /** @return Each JVM's answer, in the order of {@link #jvms}, once its members all saw {@code size} nodes or ms passed. */
    private List<String[]> sizeReplies(int size, long ms) throws Exception {
        List<String[]> res = new ArrayList<>();

        for (MemberProcess m : jvms)
            m.send("await-size " + size + " " + ms);

        for (MemberProcess m : jvms)
            res.add(m.reply(null, ms + 60_000));

        return res;
    }

    /**
     * Sends message {@code id} from a member of {@link #bulk} and waits until every member had it.
     * @return Micros from the send until every member had it, and (if it needs one) until every member had its ack.
     */
    long[] deliver(long id, boolean ack) throws Exception {
        long sent = Long.parseLong(bulk.call("send " + id + " " + (ack ? 1 : 0), "sent", 60_000)[2]);

        lastSent = sent;
        long got = receipts.await("got", id, settings.stepTimeoutMs);
        long acked = ack ? receipts.await("acked", id, settings.stepTimeoutMs) : got;

        lastSpread = new LinkedHashMap<>();

        for (Map.Entry<String, long[]> e : receipts.spread("got", id).entrySet())
            lastSpread.put(e.getKey(), new long[] {e.getValue()[0] - sent, e.getValue()[1] - sent});

        return new long[] {got - sent, acked - sent};
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

    /** @return How many members are in each engine state (JOINED/CONNECTED, JOINED/FROZEN, STOPPED...). */
    Map<String, Integer> states() throws Exception {
        Map<String, Integer> res = new TreeMap<>();

        for (MemberProcess m : jvms)
            parse(m.call("states", "states", 60_000), res);

        return res;
    }

    private static Map<String, Integer> parse(String[] reply, Map<String, Integer> into) {
        MemberProcess.counts(reply).forEach((k, v) -> into.merge(k, Math.toIntExact(v), Integer::sum));

        return into;
    }

    /**
     * @return When ZooKeeper deletes the alive znode of {@code m}'s first member: its session's expiry. Failed at once
     *      if that member has no alive znode any more.
     */
    CompletableFuture<Long> expiryOf(MemberProcess m, CuratorFramework admin) throws Exception {
        return expiriesOf(m, admin).get(0);
    }

    /**
     * @return For each of {@code m}'s members, in the order it lists them, when ZooKeeper deletes its alive znode (epoch
     *      µs): its session's expiry. Failed at once for a member that has no alive znode any more.
     */
    List<CompletableFuture<Long>> expiriesOf(MemberProcess m, CuratorFramework admin) throws Exception {
        String[] ids = m.call("ids", "ids", 60_000);
        List<CompletableFuture<Long>> all = new ArrayList<>();

        for (int i = 1; i < ids.length; i++) {
            CompletableFuture<Long> gone = new CompletableFuture<>();

            if (!watchDeletion(admin, root + "/alive/" + ids[i], gone))
                gone.completeExceptionally(new IllegalStateException("Not alive: the outage rule cut it off before"));

            all.add(gone);
        }

        return all;
    }

    /**
     * @return When the last of {@code expiries} that were alive when asked came: all those alive znodes gone. Their
     *      expiries spread over a tick or more, and a member failure is logged only once ZooKeeper ended it.
     */
    static CompletableFuture<Long> last(List<CompletableFuture<Long>> expiries) {
        List<CompletableFuture<Long>> alive = new ArrayList<>();

        for (CompletableFuture<Long> f : expiries) {
            if (!f.isCompletedExceptionally())
                alive.add(f);
        }

        return CompletableFuture.allOf(alive.toArray(new CompletableFuture[0]))
            .thenApply(v -> alive.stream().mapToLong(CompletableFuture::join).max().orElse(0));
    }

    /**
     * Completes {@code gone} when {@code path} is deleted. A one-shot watch fires on a change of its data too (an ack
     * that landed as the member was paused): it is set again then, or the deletion would never be heard (a CI run
     * waited 20 minutes for it).
     *
     * @return Whether {@code path} existed when the watch was set.
     */
    private static boolean watchDeletion(CuratorFramework admin, String path, CompletableFuture<Long> gone) throws Exception {
        return admin.checkExists().usingWatcher((Watcher)e -> {
            if (e.getType() == Watcher.Event.EventType.NodeDeleted)
                gone.complete(JvmTally.nowMicros());
            else if (e.getType() != Watcher.Event.EventType.None) {
                try {
                    if (!watchDeletion(admin, path, gone))
                        gone.complete(JvmTally.nowMicros());
                }
                catch (Exception ex) {
                    gone.completeExceptionally(ex);
                }
            }
        }).forPath(path) != null;
    }

    @Override public void close() throws InterruptedException {
        for (MemberProcess m : jvms)
            m.close();
    }
}
