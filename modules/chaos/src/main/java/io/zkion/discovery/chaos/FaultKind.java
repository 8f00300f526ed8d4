package io.zkion.discovery.chaos;

/** The faults a chaos run injects, one at a time. */
enum FaultKind {
    /** kill -9 of the coordinator (the oldest server). */
    KILL_COORDINATOR,
    /** kill -9 of a random node, server or client. */
    KILL_NODE,
    /** A random node's session ended on the server. */
    EXPIRE_SESSION,
    /** One ZooKeeper server of three killed, then started again a few seconds later: never more than one down. */
    ZK_SERVER_RESTART,
    /** A random node stopped (SIGSTOP) past the session timeout, then continued (SIGCONT). */
    PAUSE_NODE,
    /** A random node's next commit lands but its reply is lost; Curator sends it again. */
    LOSE_REPLY,
    /** A random node cut from ZooKeeper alone, its links to the other nodes kept, until the cluster is rid of it. */
    CUT_FROM_ZOOKEEPER,
    /** The link between two random servers cut both ways while both keep ZooKeeper: a round removes one. */
    CUT_SERVERS,
    /**
     * A random node's whole link made slow both ways for two session timeouts: a token bucket of 256 kbit/s and 5 % of
     * packets dropped at random, or 64 kbit/s and 10 % (this kernel has no netem, so no fixed delay). The node should
     * stay; one that goes must go cleanly.
     */
    SLOW_LINK;

    /** @return Whether the fault acts on links: it needs the nodes on hosts of their own ({@link NetLab}, root). */
    boolean network() {
        return this == CUT_FROM_ZOOKEEPER || this == CUT_SERVERS || this == SLOW_LINK;
    }
}
