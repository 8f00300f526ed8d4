package io.zkion.discovery.internal;

import java.util.Map;

/**
 * When a member writes its ack (the last event id it applied, in its alive znode), and what the coordinator may
 * expect of those acks.
 * <p>
 * Acks serve two ends. Ignite waits for every node to have a message that has an ack message: that ack is logged
 * once every member acked past it, so such a message is acked at once. Every other entry only needs trimming, which
 * can wait. A member acks those when it is behind by {@link #entriesBehind} entries (at least 128, and as many as
 * the cluster has members) or {@link #BYTES_BEHIND} bytes, or once the log has stood still for {@link #idleMs}.
 * A stream of plain messages then costs each member one ack per N entries, so the writes per message stay flat as
 * the cluster grows; acking every burst cost N writes a burst (issue 20).
 * <p>
 * Only a coordinator that knows this rule is acked so ({@link #lazy}): an older coordinator expects an ack within a
 * second and would read every member's lagging ack directly while it waits.
 */
public final class AckPolicy {
    /** Says a node, as coordinator, expects lazy acks of entries nobody awaits. */
    private static final NodeCapability CAPABILITY = new NodeCapability("io.zkion.discovery.lazyAcks", 1);

    /** The fewest entries a member may be behind before it acks. */
    private static final int MIN_ENTRIES_BEHIND = 128;

    /** Bytes of entries a member may be behind before it acks: bounds what an unacked log holds in ZooKeeper. */
    public static final long BYTES_BEHIND = 4L << 20;

    /** How long the log stands still before a member acks what it has: a quiet cluster trims its log too. */
    public static final long IDLE_MS = 3_000;

    /** {@link #IDLE_MS}, unless a test that must see no idle ack set it longer. */
    private static volatile long idleMs = IDLE_MS;

    private AckPolicy() {
    }

    /** @return How long the log stands still before a member acks what it has. */
    public static long idleMs() {
        return idleMs;
    }

    /** Sets {@link #idleMs} for the nodes of this JVM; 0 restores {@link #IDLE_MS}. */
    @TestSeam
    public static void idleMsForTest(long ms) {
        idleMs = ms > 0 ? ms : IDLE_MS;
    }

    /** @return How many unacked entries a member of a cluster of {@code members} nodes acks at. */
    public static int entriesBehind(int members) {
        return Math.max(MIN_ENTRIES_BEHIND, members);
    }

    /**
     * @return Whether members ack lazily in {@code t}: its coordinator, the oldest server, follows this rule. While
     *      the coordinator changes a member may decide on the old one: either way it acks within seconds.
     */
    public static boolean lazy(Topology t) {
        for (ZkIonClusterNode n : t.members()) {
            if (!n.isClient())
                return CAPABILITY.of(n);
        }

        return false;
    }

    /** @return {@code attrs} with the attribute that says this node, as coordinator, expects lazy acks. */
    public static Map<String, Object> withCapability(Map<String, Object> attrs) {
        return CAPABILITY.advertise(attrs);
    }
}
