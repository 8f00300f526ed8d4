package io.zkion.discovery.zk;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
 * joined/shared-&lt;id&gt; persistent   common data the answers of one batch of joins share (swept once it is trimmed)
 * left/&lt;id&gt;          persistent   written by a node stopping gracefully: its exit is NODE_LEFT
 * custom/c-&lt;seq&gt;     persistent   custom messages for the coordinator to log: mutable ones, and those
 *                                 sent from the discovery thread itself
 * log/e-&lt;seq&gt;        persistent   the event log: the coordinator's entries and members' custom messages,
 *                                 in ZooKeeper's sequence order; trimmed once every node acknowledged them.
 *                                 Entries of log epoch n &gt; 0 are e&lt;n&gt;-&lt;seq&gt;: a rollover drains the log and
 *                                 creates it anew, so that ZooKeeper's counter under it starts from zero
 * parts/&lt;uuid&gt;-&lt;k&gt;   either       pieces of payloads larger than one ZooKeeper request
 * comm/ask-&lt;id&gt;      persistent   a node's call for a communication-failure round (0.2.0); the round takes it
 * comm/r-&lt;round&gt;/&lt;id&gt; persistent each node's connectivity report in that round; gone with the round's verdict
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
    public final String comm;

    /** What the names under {@link #comm} start with: a node's call for a round, a round's directory. */
    private static final String COMM_ASK = "ask-";
    private static final String COMM_ROUND = "r-";

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
        comm = root + "/comm";
    }

    /** @return Every directory under the root: every node makes sure they exist at start. */
    public String[] parents() {
        return new String[] {alive, join, nodes, joined, left, custom, log, parts, comm};
    }

    /** @return The directories whose children may be parts manifests: all but {@link #parts} itself. */
    public String[] withManifests() {
        return Arrays.stream(parents()).filter(dir -> !dir.equals(parts) && !dir.equals(comm)).toArray(String[]::new);
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

    /** @return Where a node calls for a communication-failure round. */
    public String commAsk(UUID node) {
        return comm + "/" + COMM_ASK + node;
    }

    /** @return Whether {@code name}, a child of {@link #comm}, is a node's call for a round (else a round's directory). */
    public static boolean isCommAsk(String name) {
        return name.startsWith(COMM_ASK);
    }

    /** @return The directory of a communication-failure round's reports. */
    public String round(UUID round) {
        return comm + "/" + COMM_ROUND + round;
    }

    /** @return The round a directory under {@link #comm} holds the reports of, as its name gives it. */
    public static String roundOf(String name) {
        return name.startsWith(COMM_ROUND) ? name.substring(COMM_ROUND.length()) : name;
    }

    /** @return A node's connectivity report in a round. */
    public String report(UUID round, UUID node) {
        return round(round) + "/" + node;
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

    /** The prefix of {@link #joinedShared}'s names under joined/. */
    public static final String SHARED_PREFIX = "shared-";

    /**
     * @return The znode of the common data the answers of one batch of joins share, of a name of its own: the sweep
     *      removes it once its entry, written in the same multi, is trimmed.
     */
    public String joinedShared(UUID batch) {
        return joined + "/" + SHARED_PREFIX + batch;
    }

    /** @return Whether {@code path} is a {@link #joinedShared} znode of this cluster. */
    public boolean isJoinedShared(String path) {
        return path.startsWith(joined + "/" + SHARED_PREFIX);
    }

    public String left(UUID id) {
        return left + "/" + id;
    }

    /** @return The prefix of the paths of log entries of epoch {@code epoch}. */
    public String logPrefix(long epoch) {
        return log + "/" + namePrefix(epoch);
    }

    /** @return The path of the log entry at {@code position}, as ZooKeeper names a sequential child. */
    public String logEntry(long position) {
        return log + "/" + entryName(position);
    }

    /** @return The name of the log entry at {@code position}, as ZooKeeper names a sequential child. */
    public static String entryName(long position) {
        return namePrefix(epochOf(position)) + String.format(Locale.ROOT, "%010d", sequenceOf(position));
    }

    /** @return What the names of log entries of epoch {@code epoch} start with: {@code e-} in epoch 0, then {@code e<n>-}. */
    private static String namePrefix(long epoch) {
        return "e" + (epoch == 0 ? "" : Long.toString(epoch)) + "-";
    }

    public String customPrefix() {
        return custom + "/c-";
    }

    /**
     * Sequence numbers past this are close to ZooKeeper's limit of 2^31 (its counter is a signed int): a coordinator
     * warns from here on. The log rolls over to a new epoch long before (see {@code LogRollover}); only a rollover that
     * cannot finish lets the counter come here.
     */
    public static final long SEQUENCE_WARNING = Integer.MAX_VALUE - (1L << 24);

    /** Bits of a position that hold the sequence number within its epoch: ZooKeeper's counter is a signed int. */
    private static final int SEQUENCE_BITS = 31;

    /**
     * @param nameOrPath A sequential znode's name, or its path.
     * @return The position of a sequential node by its name: in the log, {@code epoch * 2^31 + sequence}, so that
     *      positions grow across epochs; in custom/, its sequence number.
     * @throws ZkDataException If the counter wrapped: ZooKeeper then names children with negative numbers, and the
     *      order would repeat itself; or if the name is none of ours.
     */
    public static long sequence(String nameOrPath) {
        String name = nameOrPath.substring(nameOrPath.lastIndexOf('/') + 1);
        int dash = name.indexOf('-');

        if (dash < 1 || name.length() - dash - 1 < 10)
            throw new ZkDataException(name + ": not the name of a sequential znode of ZkIon");

        long epoch;
        long seq;

        try {
            epoch = dash == 1 ? 0 : Long.parseLong(name, 1, dash, 10);
            seq = Long.parseLong(name, dash + 1, name.length(), 10);
        }
        catch (NumberFormatException e) {
            throw new ZkDataException(name + ": not the name of a sequential znode of ZkIon (" + e.getMessage() + ")");
        }

        if (seq < 0) {
            throw new ZkDataException(name + ": ZooKeeper's sequence counter under its parent wrapped past 2^31. "
                + "Stop every node of the cluster: the last one out removes the log and its counter with it");
        }

        if (epoch < 0 || epoch >= 1L << 20)
            throw new ZkDataException(name + ": log epoch " + epoch + " is outside 0.." + ((1L << 20) - 1));

        return position(epoch, seq);
    }

    /** @return The position of the entry numbered {@code seq} in log epoch {@code epoch}. */
    public static long position(long epoch, long seq) {
        return epoch << SEQUENCE_BITS | seq;
    }

    /** @return The log epoch of {@code position}. */
    public static long epochOf(long position) {
        return position >>> SEQUENCE_BITS;
    }

    /** @return ZooKeeper's sequence number of {@code position}, within its epoch. */
    public static long sequenceOf(long position) {
        return position & ((1L << SEQUENCE_BITS) - 1);
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

    /** @return The node ids that name {@code children} (of alive/ or left/), those that name none left out. */
    public static Set<UUID> nodeIds(List<String> children) {
        Set<UUID> ids = new HashSet<>();

        for (String name : children) {
            UUID id = nodeId(name);

            if (id != null)
                ids.add(id);
        }

        return ids;
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
