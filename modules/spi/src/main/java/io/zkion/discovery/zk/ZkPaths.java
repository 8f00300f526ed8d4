package io.zkion.discovery.zk;

import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

/**
 * Where everything lives under the root. The layout, in one place:
 * <pre>
 * state              persistent   cluster state; every coordinator commit sets it with a version check
 * gate               persistent   open or closed to members' appends, and the format they write in
 * alive/&lt;id&gt;         ephemeral    one per live node (joining or joined): formats it reads, its ack
 * join/&lt;id&gt;          ephemeral    a joining node's request; gone with its session if it dies first
 * nodes/&lt;id&gt;         persistent   in ion-2, a node's marshalled self and joining data, written once by the
 *                                 joiner; removed when the entry that took the node out is trimmed
 * joined/&lt;id&gt;        persistent   the coordinator's answer: rejection, or the state to start from
 * left/&lt;id&gt;          persistent   written by a node stopping gracefully: its exit is NODE_LEFT
 * custom/c-&lt;seq&gt;     persistent   custom messages for the coordinator to log: mutable ones, and those
 *                                 sent from the discovery thread itself
 * log/e-&lt;seq&gt;        persistent   the event log: the coordinator's entries and members' custom messages,
 *                                 in ZooKeeper's sequence order; trimmed once every node acknowledged them
 * parts/&lt;uuid&gt;-&lt;k&gt;   either       pieces of payloads larger than one ZooKeeper request
 * </pre>
 * A stopped cluster leaves only the gate and the empty parents behind.
 */
public final class ZkPaths {
    public final String root;
    public final String state;
    public final String gate;
    public final String alive;
    public final String join;
    public final String nodes;
    public final String joined;
    public final String left;
    public final String custom;
    public final String log;
    public final String parts;

    public ZkPaths(String root) {
        this.root = root;
        state = root + "/state";
        gate = root + "/gate";
        alive = root + "/alive";
        join = root + "/join";
        nodes = root + "/nodes";
        joined = root + "/joined";
        left = root + "/left";
        custom = root + "/custom";
        log = root + "/log";
        parts = root + "/parts";
    }

    /** @return Every directory under the root: every node makes sure they exist at start. */
    public String[] parents() {
        return new String[] {alive, join, nodes, joined, left, custom, log, parts};
    }

    /** @return The directories whose children may be parts manifests: all but {@link #parts} itself. */
    public String[] withManifests() {
        return Arrays.stream(parents()).filter(dir -> !dir.equals(parts)).toArray(String[]::new);
    }

    /**
     * @return The directories whose children belong to one cluster alone: the last node out removes them, and the
     *      founder of the next cluster what a dead one left there. {@link #nodes} and {@link #parts} are not among
     *      them: they also hold what nodes joining at that moment wrote, which belongs to the next cluster.
     */
    public String[] clusterOwned() {
        return new String[] {log, custom, joined, left};
    }

    /**
     * @return The directories whose children are sequential: ZooKeeper's counter under each only grows. The last node
     *      out removes these directories themselves, so that the next cluster starts counting from zero.
     */
    public String[] sequential() {
        return new String[] {log, custom};
    }

    public String alive(UUID id) {
        return alive + "/" + id;
    }

    public String join(UUID id) {
        return join + "/" + id;
    }

    public String node(UUID id) {
        return nodes + "/" + id;
    }

    public String joined(UUID id) {
        return joined + "/" + id;
    }

    public String left(UUID id) {
        return left + "/" + id;
    }

    public String logPrefix() {
        return log + "/e-";
    }

    /** @return The path of the log entry numbered {@code seq}, as ZooKeeper names a sequential child. */
    public String logEntry(long seq) {
        return logPrefix() + String.format(Locale.ROOT, "%010d", seq);
    }

    public String customPrefix() {
        return custom + "/c-";
    }

    /**
     * Sequence numbers past this are close to ZooKeeper's limit of 2^31 (its counter is a signed int): a coordinator
     * warns from here on, while there is time to restart the cluster, which resets the counter.
     */
    public static final long SEQUENCE_WARNING = Integer.MAX_VALUE - (1L << 24);

    /**
     * @return The sequence number ZooKeeper appended to a sequential node's name.
     * @throws ZkDataException If the counter wrapped: ZooKeeper then names children with negative numbers, and the
     *      log's order would repeat itself.
     */
    public static long sequence(String name) {
        long seq = Long.parseLong(name, name.length() - 10, name.length(), 10);

        if (seq < 0) {
            throw new ZkDataException(name + ": ZooKeeper's sequence counter under its parent wrapped past 2^31. "
                + "Stop every node of the cluster: the last one out removes the log and its counter with it");
        }

        return seq;
    }

    /** @return The node id that names a child of alive/, join/, joined/ or left/, or null if it is none. */
    public static UUID nodeId(String name) {
        try {
            return UUID.fromString(name);
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Checks a root path the way ZooKeeper will, with a message that says what to change. */
    public static String validateRoot(String root) {
        if (root == null || root.isEmpty())
            return "zkRootPath is empty: set an absolute path such as /apacheIgnite";

        if (!root.startsWith("/"))
            return "zkRootPath must start with '/': " + root;

        if (root.length() > 1 && root.endsWith("/"))
            return "zkRootPath must not end with '/': " + root;

        if (root.contains("//") || root.contains("/./") || root.contains("/../") || root.endsWith("/.")
            || root.endsWith("/.."))
            return "zkRootPath has an empty or relative segment: " + root;

        if (root.equals("/"))
            return "zkRootPath must not be '/': give the cluster its own node, such as /apacheIgnite";

        if (root.equals("/zookeeper") || root.startsWith("/zookeeper/"))
            return "zkRootPath must not be under /zookeeper, which ZooKeeper reserves: " + root;

        return null;
    }
}
