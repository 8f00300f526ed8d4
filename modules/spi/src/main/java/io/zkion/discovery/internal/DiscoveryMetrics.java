package io.zkion.discovery.internal;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.ignite.internal.processors.metric.MetricRegistryImpl;

/**
 * Counters an operator asks for and the stock SPI does not expose: bytes written to ZooKeeper, log entries
 * and their sizes, compression, retries, coordinator changes. Counted from the start; published into
 * Ignite's metric registry once the SPI context exists.
 */
public final class DiscoveryMetrics {
    private final LongAdder joined = new LongAdder();
    private final LongAdder left = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder custom = new LongAdder();
    private final LongAdder logEntriesWritten = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder entriesRead = new LongAdder();
    private final LongAdder entriesTrimmed = new LongAdder();
    private final LongAdder coordinatorTakeovers = new LongAdder();
    private final LongAdder commitConflicts = new LongAdder();
    private final LongAdder connectionLosses = new LongAdder();
    private final LongAdder gateClosings = new LongAdder();
    private final LongAdder gateWaits = new LongAdder();
    private final LongAdder undeliverable = new LongAdder();

    public void onJoined() { joined.increment(); }
    public void onLeft() { left.increment(); }
    public void onFailed() { failed.increment(); }
    public void onCustom() { custom.increment(); }
    public void onWritten(long bytes) { bytesWritten.add(bytes); }
    public void onLogEntryWritten() { logEntriesWritten.increment(); }
    public void onRead(long bytes) { bytesRead.add(bytes); entriesRead.increment(); }
    public void onTrimmed(int n) { entriesTrimmed.add(n); }
    public void onTakeover() { coordinatorTakeovers.increment(); }
    public void onCommitConflict() { commitConflicts.increment(); }
    public void onConnectionLoss() { connectionLosses.increment(); }
    public void onGateClosed() { gateClosings.increment(); }
    public void onGateWait() { gateWaits.increment(); }
    public void onUndeliverable() { undeliverable.increment(); }

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long logEntriesWritten() {
        return logEntriesWritten.sum();
    }

    public long undeliverable() {
        return undeliverable.sum();
    }

    public long entriesTrimmed() {
        return entriesTrimmed.sum();
    }

    /** Publishes the counters, plus gauges the engine supplies, into {@code reg}. */
    public void register(MetricRegistryImpl reg, LongSupplier topVer, Supplier<Object> coordinator,
        LongSupplier pendingEntries) {
        add(reg, "JoinedNodes", "Nodes joined since start.", joined);
        add(reg, "LeftNodes", "Nodes left since start.", left);
        add(reg, "FailedNodes", "Nodes failed since start.", failed);
        add(reg, "CustomEvents", "Custom events delivered since start.", custom);
        add(reg, "ZkBytesWritten", "Payload bytes this node wrote to ZooKeeper.", bytesWritten);
        add(reg, "ZkBytesRead", "Payload bytes this node read from the event log.", bytesRead);
        add(reg, "LogEntriesWritten", "Event log entries this node appended.", logEntriesWritten);
        add(reg, "LogEntriesRead", "Event log entries this node read.", entriesRead);
        add(reg, "LogEntriesTrimmed", "Event log entries this node trimmed as coordinator.", entriesTrimmed);
        add(reg, "CoordinatorTakeovers", "Times this node became coordinator.", coordinatorTakeovers);
        add(reg, "CommitConflicts", "Coordinator commits refused by the state version check.", commitConflicts);
        add(reg, "ConnectionLosses", "ZooKeeper sessions this node lost.", connectionLosses);
        add(reg, "LogGateClosings", "Times this node, as coordinator, closed the log to members' appends.", gateClosings);
        add(reg, "UndeliverableCustomEvents", "Custom events this node could not read and skipped (the others"
            + " deliver them).", undeliverable);
        add(reg, "LogGateRetries", "Custom message appends that met a closed log gate and were retried.", gateWaits);
        reg.register("CurrentTopologyVersion", topVer, "Current topology version.");
        reg.register("PendingLogEntries", pendingEntries, "Event log entries not yet trimmed, as this node knows them.");
        reg.register("Coordinator", coordinator, Object.class, "Id of the coordinator, as this node knows it.");
    }

    private static void add(MetricRegistryImpl reg, String name, String desc, LongAdder src) {
        reg.register(name, src::sum, desc);
    }
}
