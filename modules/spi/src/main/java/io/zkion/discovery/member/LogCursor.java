package io.zkion.discovery.member;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.UnsupportedFormatException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.EventKind;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.internal.DiscoveryMetrics;
import io.zkion.discovery.log.EventIds;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * Reads {@code log/} in sequence order and hands each entry this node has not applied to the {@link EventApplier}:
 * by listing the log, or by the names the log watch announced. Remembers the last sequence applied; entries this node
 * wrote itself (as coordinator, or founding) are applied as it commits them, and count as read.
 * <p>
 * The gap check: ZooKeeper numbers the children of {@code log/} without holes (deletes do not move the sequence, a
 * failed multi consumes no number: {@code LogSequenceFactsTest}), so the next entry a node applies is always the one
 * after the last. An entry missing there, or listed and gone before this node read it, was trimmed past this node:
 * the cluster went on without it (it was failed out, or paused past its session timeout). The node stops with a
 * {@link LogGapException} naming the entry rather than hand Ignite a history with a hole in it.
 * <p>
 * Positions, not bare sequence numbers: a log rollover starts the log afresh in a new epoch, whose entries' names
 * carry it ({@link ZkPaths#sequence}), so positions grow across epochs and the watch's names need no context.
 */
final class LogCursor {
    private final ZkStore store;
    private final ZkPaths paths;
    private final EventFormats formats;
    private final ControlCodec control;
    private final DiscoveryMetrics metrics;
    private final IgniteLogger log;
    private final EventApplier applier;
    private final UntrimmedEntries untrimmed;

    /** Every entry up to this one is applied, or lies before this node's join; none after it. */
    private long lastSeq = -1;

    /** Whether {@link #lastSeq} was set by this node's join or founding: before that, no entry is expected. */
    private boolean positioned;

    LogCursor(ZkStore store, EventFormats formats, ControlCodec control, DiscoveryMetrics metrics, IgniteLogger log,
        EventApplier applier, UntrimmedEntries untrimmed) {
        this.store = store;
        this.control = control;
        this.paths = store.paths();
        this.formats = formats;
        this.metrics = metrics;
        this.log = log;
        this.applier = applier;
        this.untrimmed = untrimmed;
    }

    /**
     * Finds this node's own join in the log, newest first (it is recent): the coordinator learns the join entry's
     * place only as it commits it. That entry is read again: events after the join in it still apply.
     *
     * @return The id of the join event.
     */
    long seekOwnJoin(UUID clusterId, UUID localId) throws Exception {
        List<String> names = sortedLog();

        for (int i = names.size() - 1; i >= 0; i--) {
            String path = paths.log + "/" + names.get(i);
            ZkStore.Payload p = store.readPayload(path);

            if (p == null)
                continue;

            EventBatch b = decode(p.data, path);

            if (!b.clusterId().equals(clusterId))
                continue;

            for (DiscoveryEvent e : b.events()) {
                if (e.kind() == EventKind.NODE_JOINED && e.nodeId().equals(localId)) {
                    long seq = ZkPaths.sequence(names.get(i));

                    lastSeq = seq - 1;
                    positioned = true;

                    return EventIds.absolute(seq, e.eventId());
                }
            }
        }

        throw new IgniteSpiException("The event log under " + paths.log + " has no join event for node " + localId);
    }

    List<String> sortedLog() throws Exception {
        List<String> names = new ArrayList<>(store.children(paths.log));

        names.sort((a, b) -> Long.compare(ZkPaths.sequence(a), ZkPaths.sequence(b)));

        return names;
    }

    /** Reads and applies every entry below sequence {@code bound}, then forgets entries that were trimmed. */
    Applied catchUpBefore(long bound) throws Exception {
        Applied total = new Applied();

        // The log's numbers have no holes: if the entry just written comes right after the last one this node
        // applied, nothing came in between.
        if (bound == lastSeq + 1)
            return total;

        List<String> names = sortedLog();
        Set<Long> present = new HashSet<>();

        for (String name : names) {
            long seq = ZkPaths.sequence(name);

            present.add(seq);

            if (seq < bound)
                total.add(readAndApply(name, seq));
        }

        untrimmed.forgetAllBut(present);

        return total;
    }

    /**
     * Applies the entries the log watch reported created, without listing the log: ZooKeeper delivers a persistent
     * watch's events in order and without loss while the watch stands, and a reset of the watch lists the log again.
     */
    Applied catchUpCreated(List<String> created) throws Exception {
        Applied total = new Applied();
        List<String> names = new ArrayList<>(created);

        names.sort((a, b) -> Long.compare(ZkPaths.sequence(a), ZkPaths.sequence(b)));

        for (String name : names)
            total.add(readAndApply(name, ZkPaths.sequence(name)));

        return total;
    }

    /** Forgets entries the log watch reported deleted: the coordinator trimmed them once every node had them. */
    void onDeleted(List<String> deleted) {
        for (String name : deleted)
            untrimmed.forget(ZkPaths.sequence(name));
    }

    /**
     * Applies an entry this node just wrote as coordinator (or as the node that founded the cluster). The coordinator
     * caught up with every entry before it first, so it is the next one.
     */
    Applied applyOwn(long seq, String path, byte[] manifest, EventBatch batch, Map<Long, Predecoded> predelivered)
        throws Exception {
        if (!positioned) { // The founding entry: what lies before it is a dead cluster's.
            lastSeq = seq - 1;
            positioned = true;
        }

        requireNext(seq);

        lastSeq = seq; // Read already: a failure to apply it is not undone by applying it again.

        return applier.apply(seq, path, manifest, batch, predelivered);
    }

    /** Reads and applies one entry unless this node has it already. */
    private Applied readAndApply(String name, long seq) throws Exception {
        if (applier.excluded() || seq <= lastSeq)
            return new Applied();

        requireNext(seq);

        String path = paths.log + "/" + name;
        ZkStore.Payload p;

        try {
            p = store.readPayload(path);
        }
        catch (ZkDataException e) {
            throw new IgniteSpiException("Corrupt event log entry " + path + ": " + e.getMessage(), e);
        }

        if (p == null) // Listed, and trimmed before this node read it: only entries every node acked may be.
            throw LogGapException.goneBeforeRead(path);

        metrics.onRead(p.data.length);

        EventBatch batch = decode(p.data, path);
        UUID clusterId = applier.clusterId();

        if (clusterId != null && !batch.clusterId().equals(clusterId)) {
            log.warning("Skipping " + path + ": it belongs to cluster " + batch.clusterId() + ", not " + clusterId);
            lastSeq = seq;
            return new Applied();
        }

        Applied a = applier.apply(seq, path, p.manifest, batch, Collections.emptyMap());

        lastSeq = seq;

        if (a.entries > 0)
            a.bytes = p.data.length;

        return a;
    }

    /**
     * @return Entries this node never applied (written before it joined) that are still in the log, in sequence
     *      order, for a new coordinator to take over (see {@link OlderEntries}).
     */
    List<OlderEntries.Older> olderEntries() throws Exception {
        List<OlderEntries.Older> out = new ArrayList<>();

        for (String name : sortedLog()) {
            long seq = ZkPaths.sequence(name);

            if (seq > lastSeq || untrimmed.contains(seq))
                continue;

            String path = paths.log + "/" + name;
            ZkStore.Payload p = store.readPayload(path);

            if (p == null)
                continue;

            EventBatch b;

            try {
                b = formats.decode(p.data, path);
            }
            catch (UnsupportedFormatException olderFormat) {
                // Written before this node joined, in a format the cluster wrote then and this node does not read.
                out.add(new OlderEntries.Older(seq, path, p.manifest, null, olderFormat.getMessage()));
                continue;
            }
            catch (CodecException e) {
                throw new IgniteSpiException("Corrupt event log entry " + path + ": " + e.getMessage(), e);
            }

            if (!b.events().isEmpty())
                out.add(new OlderEntries.Older(seq, path, p.manifest, b, null));
        }

        return out;
    }

    /**
     * Fails unless {@code seq} is the entry after the last one applied: a hole is an entry this node missed. The first
     * entry of a new log epoch is the next one if the state says that epoch follows the last one applied.
     */
    private void requireNext(long seq) throws Exception {
        if (!positioned || seq == lastSeq + 1)
            return;

        if (ZkPaths.sequenceOf(seq) == 0 && ZkPaths.epochOf(seq) == ZkPaths.epochOf(lastSeq) + 1) {
            byte[] data = store.read(paths.state);
            ClusterState st = data == null ? null : control.decodeState(data, paths.state);

            // A state already in a later epoch: this one was drained, and this node had not applied it, so it was out.
            if (st != null && st.logEpoch == ZkPaths.epochOf(seq) && st.epochFollows == lastSeq)
                return;
        }

        throw LogGapException.missing(paths, lastSeq, seq);
    }

    /** @return The position of the last entry applied, or -1 before this node's join. */
    long lastPosition() {
        return lastSeq;
    }

    private EventBatch decode(byte[] data, String path) {
        try {
            return formats.decode(data, path);
        }
        catch (CodecException e) {
            // Never skip: a skipped entry would silently fork this node's view from the cluster's.
            throw new IgniteSpiException("Corrupt event log entry " + path + ": " + e.getMessage(), e);
        }
    }
}
