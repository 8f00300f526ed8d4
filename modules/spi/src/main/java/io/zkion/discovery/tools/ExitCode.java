package io.zkion.discovery.tools;

import org.apache.zookeeper.KeeperException;

/**
 * zkion-cli's exit codes, one per thing a script must tell apart, and which a failure maps to. docs/operations.md (section 7) lists them.
 */
final class ExitCode {
    static final int HEALTHY = 0;
    static final int UNHEALTHY = 1;
    /** ZooKeeper answered, but holds no cluster under the root: a wrong root, or a cluster not started. */
    static final int NO_CLUSTER = 2;
    static final int ZOOKEEPER_UNREACHABLE = 3;
    static final int AUTH_REFUSED = 4;
    /** Anything else: data that does not decode, say. */
    static final int ERROR = 5;
    /** A command line that does not parse (EX_USAGE of sysexits.h). */
    static final int USAGE = 64;

    /** No ZooKeeper server answered. */
    static final class ZooKeeperUnreachable extends Exception {
        ZooKeeperUnreachable(String msg) {
            super(msg);
        }
    }

    private ExitCode() {
    }

    /** @return The code for a command that failed with {@code e}. */
    static int of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ZooKeeperUnreachable || t instanceof KeeperException.ConnectionLossException
                || t instanceof KeeperException.SessionExpiredException)
                return ZOOKEEPER_UNREACHABLE;

            if (t instanceof KeeperException.NoAuthException || t instanceof KeeperException.AuthFailedException)
                return AUTH_REFUSED;
        }

        return ERROR;
    }

    /** @return The name a JSON error gives the code. */
    static String kind(int code) {
        switch (code) {
            case ZOOKEEPER_UNREACHABLE: return "zookeeper-unreachable";
            case AUTH_REFUSED: return "auth-refused";
            case USAGE: return "usage";
            case NO_CLUSTER: return "no-cluster";
            default: return "error";
        }
    }

    /** @return A failure as one JSON object: what kind, what happened, and the code the CLI exits with. */
    static String json(int code, String message) {
        StringBuilder sb = new StringBuilder("{\"error\":{");

        Json.field(sb, "kind", kind(code));
        sb.append(',');
        Json.field(sb, "message", message);

        return sb.append("},\"exitCode\":").append(code).append('}').toString();
    }
}
