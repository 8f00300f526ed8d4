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
    LOSE_REPLY
}
