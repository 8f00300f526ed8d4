package io.zkion.discovery.bench.scale;

import org.apache.ignite.IgniteLogger;

/**
 * Warnings and errors of a simulated member, on the member JVM's stderr with the time (epoch ms) and the member's
 * name; of the info lines, only a takeover of the coordinator's role, to time a failover's steps against the run's.
 */
final class StderrLogger implements IgniteLogger {
    /** How the SPI's line on taking the coordinator's role begins. */
    private static final String TAKEOVER = "This node is the discovery coordinator";

    private final String name;

    StderrLogger(String name) {
        this.name = name;
    }

    @Override public IgniteLogger getLogger(Object ctgr) {
        return this;
    }

    @Override public void trace(String msg) {
        // Off.
    }

    @Override public void debug(String msg) {
        // Off.
    }

    @Override public void info(String msg) {
        // The rest is off: at a thousand members, info lines would be the run's main cost.
        if (msg.startsWith(TAKEOVER))
            print("INFO", msg, null);
    }

    @Override public void warning(String msg, Throwable e) {
        print("WARN", msg, e);
    }

    @Override public void error(String msg, Throwable e) {
        print("ERROR", msg, e);
    }

    private void print(String level, String msg, Throwable e) {
        System.err.println(System.currentTimeMillis() + " " + level + " [" + name + "] " + msg + (e == null ? "" : ": " + e));
    }

    @Override public boolean isTraceEnabled() {
        return false;
    }

    @Override public boolean isDebugEnabled() {
        return false;
    }

    @Override public boolean isInfoEnabled() {
        return false;
    }

    @Override public boolean isQuiet() {
        return true;
    }

    @Override public String fileName() {
        return null;
    }
}
