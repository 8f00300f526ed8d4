package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.ignite.IgniteLogger;

/** A node's logger that keeps its warnings and errors (and its info lines if asked), for a test to look for a message. */
final class ErrorLog implements IgniteLogger {
    final List<String> messages = new CopyOnWriteArrayList<>();

    /** Whether info lines are kept too. */
    private final boolean keepInfo;

    ErrorLog() {
        this(false);
    }

    ErrorLog(boolean keepInfo) {
        this.keepInfo = keepInfo;
    }

    /** Runs on the logging thread for every warning and error, after it is kept: a test acts at that very step. */
    volatile Consumer<String> onMessage = m -> { };

    /** @return Whether a warning or error so far contains every one of {@code parts}. */
    boolean has(String... parts) {
        return messages.stream().anyMatch(m -> List.of(parts).stream().allMatch(m::contains));
    }

    @Override public IgniteLogger getLogger(Object ctgr) {
        return this;
    }

    @Override public void trace(String msg) {
        // Dropped.
    }

    @Override public void debug(String msg) {
        // Dropped.
    }

    @Override public void info(String msg) {
        if (keepInfo)
            messages.add(msg);
    }

    @Override public void warning(String msg, Throwable e) {
        messages.add(msg);
        onMessage.accept(msg);
    }

    @Override public void error(String msg, Throwable e) {
        messages.add(msg);
        onMessage.accept(msg);
    }

    @Override public boolean isTraceEnabled() {
        return false;
    }

    @Override public boolean isDebugEnabled() {
        return false;
    }

    @Override public boolean isInfoEnabled() {
        return keepInfo;
    }

    @Override public boolean isQuiet() {
        return true;
    }

    @Override public String fileName() {
        return null;
    }
}
