package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.util.UUID;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * What the coordinator keeps in the {@code state} znode: the topology version it continues from, the format
 * it writes, and, for the record, the last event it had applied. Every coordinator commit sets it with a
 * version check, which also fences a deposed coordinator.
 */
public final class ClusterState {
    public final UUID clusterId;
    public final long gridStartTime;
    public final long topVer;
    public final long eventId;
    public final String format;
    public final UUID coordinator;

    /**
     * How often the coordinator started the log afresh (a new directory, so that ZooKeeper's sequence counter under
     * it starts from zero again): the epoch entry names carry. 0 until the first rollover.
     */
    public final long logEpoch;

    /** The position of the last entry of the epoch before this one: a reader checks it has that one. -1 in epoch 0. */
    public final long epochFollows;

    /**
     * The fields of the epoch: names of the shared table that a state does not use otherwise, so that a reader that
     * does not know them skips them and no new table version is needed. Written only from epoch 1 on, so that a
     * state of epoch 0 holds the bytes it always did.
     */
    private static final String LOG_EPOCH = F.COUNT;
    private static final String EPOCH_FOLLOWS = F.FIRST;

    public ClusterState(UUID clusterId, long gridStartTime, long topVer, long eventId, String format, UUID coordinator) {
        this(clusterId, gridStartTime, topVer, eventId, format, coordinator, 0, -1);
    }

    public ClusterState(UUID clusterId, long gridStartTime, long topVer, long eventId, String format, UUID coordinator,
        long logEpoch, long epochFollows) {
        this.clusterId = clusterId;
        this.gridStartTime = gridStartTime;
        this.topVer = topVer;
        this.eventId = eventId;
        this.format = format;
        this.coordinator = coordinator;
        this.logEpoch = logEpoch;
        this.epochFollows = epochFollows;
    }

    public ClusterState with(long topVer, long eventId, String format, UUID coordinator) {
        return new ClusterState(clusterId, gridStartTime, topVer, eventId, format, coordinator, logEpoch, epochFollows);
    }

    /** @return This state in the next log epoch, which follows the entry at position {@code lastPosition}. */
    public ClusterState nextEpoch(long lastPosition) {
        return new ClusterState(clusterId, gridStartTime, topVer, eventId, format, coordinator, logEpoch + 1,
            lastPosition);
    }

    /** @return A new cluster's state that goes on in the log epoch of this, a dead cluster's state. */
    public ClusterState inEpochOf(ClusterState dead) {
        return new ClusterState(clusterId, gridStartTime, topVer, eventId, format, coordinator, dead.logEpoch,
            dead.epochFollows);
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.CLUSTER);
        w.writeString(clusterId.toString());
        w.setFieldName(F.START_TIME);
        w.writeInt(gridStartTime);
        w.setFieldName(F.TOP_VER);
        w.writeInt(topVer);
        w.setFieldName(F.COUNTER);
        w.writeInt(eventId);
        w.setFieldName(F.FORMAT);
        w.writeString(format);
        w.setFieldName(F.COORDINATOR);
        w.writeString(coordinator.toString());

        if (logEpoch > 0) {
            w.setFieldName(LOG_EPOCH);
            w.writeInt(logEpoch);
            w.setFieldName(EPOCH_FOLLOWS);
            w.writeInt(epochFollows);
        }

        w.stepOut();
    }

    static ClusterState read(IonReader r, String what) {
        return parse(IonStructReader.enter(r, what), what);
    }

    /** Reads the struct the reader is on. */
    static ClusterState readCurrent(IonReader r, String what) {
        return parse(IonStructReader.enterCurrent(r, what), what);
    }

    private static ClusterState parse(IonStructReader s, String what) {
        UUID cluster = null;
        UUID crd = null;
        long start = -1;
        long topVer = -1;
        long evt = -1;
        String format = null;
        long epoch = 0;
        long follows = -1;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.CLUSTER: cluster = s.uuid(f); break;
                case F.START_TIME: start = s.longValue(f); break;
                case F.TOP_VER: topVer = s.longValue(f); break;
                case F.COUNTER: evt = s.longValue(f); break;
                case F.FORMAT: format = s.string(f); break;
                case F.COORDINATOR: crd = s.uuid(f); break;
                case LOG_EPOCH: epoch = s.longValue(f); break;
                case EPOCH_FOLLOWS: follows = s.longValue(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(cluster != null, F.CLUSTER, what);
        IonStructReader.require(start >= 0, F.START_TIME, what);
        IonStructReader.require(topVer >= 0, F.TOP_VER, what);
        IonStructReader.require(evt >= 0, F.COUNTER, what);
        IonStructReader.require(format != null, F.FORMAT, what);
        IonStructReader.require(crd != null, F.COORDINATOR, what);
        IonStructReader.require(epoch >= 0 && (epoch == 0 || follows >= 0), LOG_EPOCH, what);

        return new ClusterState(cluster, start, topVer, evt, format, crd, epoch, follows);
    }

    @Override public String toString() {
        return "ClusterState[cluster=" + clusterId + ", topVer=" + topVer + ", eventId=" + eventId + ", format=" + format
            + ", coordinator=" + coordinator + (logEpoch > 0 ? ", logEpoch=" + logEpoch : "") + "]";
    }
}
