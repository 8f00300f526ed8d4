package io.zkion.discovery.bench.scale;

import org.apache.ignite.IgniteLogger;

/** Warnings and errors of a simulated member, on the member JVM's stderr with the member's name; nothing else. */
final class StderrLogger implements IgniteLogger {
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
        // Off: at a thousand members, info lines would be the run's main cost.
    }

    @Override public void warning(String msg, Throwable e) {
        print("WARN", msg, e);
    }

    @Override public void error(String msg, Throwable e) {
        print("ERROR", msg, e);
    }

    private void print(String level, String msg, Throwable e) {
        System.err.println(level + " [" + name + "] " + msg + (e == null ? "" : ": " + e));
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
