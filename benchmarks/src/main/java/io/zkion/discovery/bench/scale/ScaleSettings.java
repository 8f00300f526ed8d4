package io.zkion.discovery.bench.scale;

import java.nio.file.Path;
import java.util.List;

/** What every shape of a scale run shares: how member JVMs start, where they log, and the run's sizes. */
final class ScaleSettings {
    final String classPath;
    final List<String> jvmOpts;
    final Path logDir;
    /** ZooKeeper's session timeout of every member, in ms: Ignite's default failure detection timeout. */
    final int sessionTimeout;
    /** Custom messages timed at each shape (a fifth as many more are counted on ZooKeeper's side). */
    final int messages;
    /** The longest any one step may take before the run fails. */
    final long stepTimeoutMs;

    ScaleSettings(String classPath, List<String> jvmOpts, Path logDir, int sessionTimeout, int messages,
        long stepTimeoutMs) {
        this.classPath = classPath;
        this.jvmOpts = jvmOpts;
        this.logDir = logDir;
        this.sessionTimeout = sessionTimeout;
        this.messages = messages;
        this.stepTimeoutMs = stepTimeoutMs;
    }
}
