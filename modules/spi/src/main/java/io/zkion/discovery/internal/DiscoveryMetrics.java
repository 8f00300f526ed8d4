package io.zkion.discovery.internal;

import java.util.UUID;
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
    private final LongAdder stalledAckReads = new LongAdder();
    private final LongAdder coordinatorTakeovers = new LongAdder();
    private final LongAdder commitConflicts = new LongAdder();
    private final LongAdder sessionsLost = new LongAdder();
    private final LongAdder suspensions = new LongAdder();
    private final LongAdder gateClosings = new LongAdder();
    private final LongAdder gateWaits = new LongAdder();
    private final LongAdder undeliverable = new LongAdder();
    private final LongAdder logRollovers = new LongAdder();
    private final LongAdder outages = new LongAdder();
    private final LongAdder outageMillis = new LongAdder();
    private final LongAdder messagesHeld = new LongAdder();
    private final LongAdder messagesHeldNow = new LongAdder();
    private volatile long outageSince;
    private final LongAdder commErrors = new LongAdder();
    private final LongAdder rounds = new LongAdder();
    private final LongAdder roundKills = new LongAdder();
    private volatile long lastRoundMs;

    public void onJoined() { joined.increment(); }
    public void onLeft() { left.increment(); }
    public void onFailed() { failed.increment(); }
    public void onCustom() { custom.increment(); }
    public void onWritten(long bytes) { bytesWritten.add(bytes); }
    public void onLogEntryWritten() { logEntriesWritten.increment(); }
    public void onRead(long bytes) { bytesRead.add(bytes); entriesRead.increment(); }
    public void onTrimmed(int n) { entriesTrimmed.add(n); }
    public void onStalledAckRead() { stalledAckReads.increment(); }
    public void onTakeover() { coordinatorTakeovers.increment(); }
    public void onCommitConflict() { commitConflicts.increment(); }
    public void onSessionLost() { sessionsLost.increment(); }
    public void onSuspended() { suspensions.increment(); }
    public void onGateClosed() { gateClosings.increment(); }
    public void onGateWait() { gateWaits.increment(); }
    public void onLogRolledOver() { logRollovers.increment(); }
    public void onUndeliverable() { undeliverable.increment(); }
    public void onOutageStarted(long at) { outages.increment(); outageSince = at; }
    public void onOutageEnded(long lasted) { outageMillis.add(lasted); outageSince = 0; }
    public void onCommunicationError() { commErrors.increment(); }
    public void onRoundStarted() { rounds.increment(); }
    public void onRoundEnded(long ms, int killed) { lastRoundMs = ms; roundKills.add(killed); }

    /** @return Communication failures Ignite asked this node to resolve, as the stock SPI counts them. */
    public long communicationErrors() {
        return commErrors.sum();
    }

    /** A custom message starts (+1) or stops (-1) waiting for ZooKeeper to come back. */
    public void onMessageHeld(int delta) {
        messagesHeldNow.add(delta);

        if (delta > 0)
            messagesHeld.add(delta);
    }

    public long outages() {
        return outages.sum();
    }

    /** @return When the current ZooKeeper outage started (ms since the epoch), or 0 when there is none. */
    public long outageSince() {
        return outageSince;
    }

    public long outageMillis() {
        return outageMillis.sum();
    }

    public long messagesHeld() {
        return messagesHeld.sum();
    }

    public long messagesHeldNow() {
        return messagesHeldNow.sum();
    }

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long logEntriesWritten() {
        return logEntriesWritten.sum();
    }

    public long joined() {
        return joined.sum();
    }

    public long left() {
        return left.sum();
    }

    public long failed() {
        return failed.sum();
    }

    public long takeovers() {
        return coordinatorTakeovers.sum();
    }

    public long suspensions() {
        return suspensions.sum();
    }

    public long sessionsLost() {
        return sessionsLost.sum();
    }

    public long undeliverable() {
        return undeliverable.sum();
    }

    public long entriesTrimmed() {
        return entriesTrimmed.sum();
    }

    /**
     * Publishes, into {@code stock}, what Ignite's stock ZooKeeper SPI publishes under the same names (so dashboards
     * keep working after a migration), and ZkIon's own counters into {@code own}.
     */
    public void register(MetricRegistryImpl stock, MetricRegistryImpl own, LongSupplier topVer,
        Supplier<UUID> coordinator, LongSupplier pendingEntries) {
        add(stock, "JoinedNodes", "Joined nodes count.", joined);
        add(stock, "FailedNodes", "Failed nodes count.", failed);
        add(stock, "LeftNodes", "Left nodes count.", left);
        add(stock, "CommunicationErrors", "Communication errors count.", commErrors);
        stock.register("CurrentTopologyVersion", topVer, "Current topology version.");
        stock.register("Coordinator", coordinator, UUID.class, "Coordinator ID.");

        add(own, "CustomEvents", "Custom events delivered since start.", custom);
        add(own, "ZkBytesWritten", "Payload bytes this node wrote to ZooKeeper.", bytesWritten);
        add(own, "ZkBytesRead", "Payload bytes this node read from the event log.", bytesRead);
        add(own, "LogEntriesWritten", "Event log entries this node appended.", logEntriesWritten);
        add(own, "LogEntriesRead", "Event log entries this node read.", entriesRead);
        add(own, "LogEntriesTrimmed", "Event log entries this node trimmed as coordinator.", entriesTrimmed);
        add(own, "StalledTrimAckReads", "Acks this node, as coordinator, read from ZooKeeper directly, not from its cache"
            + " of alive/, because the oldest entry waited for its trim longer than members take to ack.", stalledAckReads);
        add(own, "CoordinatorTakeovers", "Times this node became coordinator.", coordinatorTakeovers);
        add(own, "CommitConflicts", "Coordinator commits refused by the state version check.", commitConflicts);
        add(own, "SessionsLost", "ZooKeeper sessions this node lost.", sessionsLost);
        add(own, "ConnectionSuspensions", "Times this node's connection to ZooKeeper was suspended (lost, its"
            + " session not yet).", suspensions);
        add(own, "LogGateClosings", "Times this node, as coordinator, closed the log to members' appends.", gateClosings);
        add(own, "LogGateRetries", "Custom message appends that met a closed log gate and were retried.", gateWaits);
        add(own, "UndeliverableCustomEvents", "Custom events this node could not read and skipped (the others"
            + " deliver them).", undeliverable);
        add(own, "LogRollovers", "Times this node, as coordinator, started the event log afresh in a new epoch.",
            logRollovers);
        add(own, "ZkOutages", "Times this joined node lost ZooKeeper and held its place (docs/operations.md, section 5).",
            outages);
        add(own, "ZkOutageMillis", "Time this node spent without ZooKeeper, ended outages, ms.", outageMillis);
        own.register("ZkOutageSince", () -> outageSince, "When the current ZooKeeper outage started (epoch ms), 0 if"
            + " none.");
        add(own, "CustomMessagesHeld", "Custom messages that waited for ZooKeeper to come back.", messagesHeld);
        add(own, "CustomMessagesHeldNow", "Custom messages waiting for ZooKeeper to come back now.", messagesHeldNow);
        add(own, "CommunicationFailureRounds", "Communication failure rounds this node opened as coordinator.", rounds);
        add(own, "CommunicationFailureKills", "Nodes this node removed as coordinator by a round's verdict.", roundKills);
        own.register("LastCommunicationFailureRoundMs", () -> lastRoundMs, "How long the last round this node decided"
            + " took, ms.");
        own.register("PendingLogEntries", pendingEntries, "Event log entries not yet trimmed, as this node knows them.");
    }

    private static void add(MetricRegistryImpl reg, String name, String desc, LongAdder src) {
        reg.register(name, src::sum, desc);
    }
}
