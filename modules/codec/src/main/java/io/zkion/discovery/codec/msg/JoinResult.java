package io.zkion.discovery.codec.msg;

import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * The coordinator's answer to a join: either the reason it was refused, or the state the new node starts
 * from (its join event's index in its log entry, the cluster state, the topology snapshot and the common
 * discovery data). The entry's place in the log is known only once the join commits: the joiner finds it.
 */
public final class JoinResult {
    /** Why a join was refused; the joiner acts on the kind, never on the wording of the reason. */
    public enum Refusal {
        /** Final: validation, authentication, a duplicate id, formats. Also any kind this release does not know. */
        REFUSED("refused"),

        /** The coordinator could not read the request (or the data znode it names): the joiner may ask again whole. */
        UNREADABLE_REQUEST("unreadable-request");

        private final String wireName;

        Refusal(String wireName) {
            this.wireName = wireName;
        }

        static Refusal ofWireName(String name) {
            for (Refusal r : values()) {
                if (r.wireName.equals(name))
                    return r;
            }

            return REFUSED;
        }
    }

    /** Null when accepted. */
    public final Refusal refusal;

    /** Null when accepted. */
    public final String rejection;
    public final long joinEventId;
    public final ClusterState state;
    public final byte[] snapshot;
    public final byte[] commonData;

    /**
     * The ids of the custom messages the coordinator delivered lately, opaque here; null when absent. A copy of one
     * logged after the join (a send Curator replayed) is then skipped by the joiner too.
     */
    public final byte[] recentMessages;

    /**
     * The field of {@link #recentMessages}: a name of the shared table's version 2 that a join result does not use
     * otherwise, so that older readers skip it and no new table version is needed.
     */
    private static final String RECENT = F.DATA;

    /**
     * The znode of the common data this answer leaves out, shared by the joiners of its batch; null when
     * {@link #commonData} is all of it. Only a joiner that advertises it reads this gets it, so that an older one never
     * takes a part for the whole: its name is a local symbol, outside the shared table's version 2.
     */
    public final String sharedCommon;

    private static final String SHARED_COMMON = "sharedCommon";

    private JoinResult(Refusal refusal, String rejection, long joinEventId, ClusterState state, byte[] snapshot,
        byte[] commonData, byte[] recentMessages, String sharedCommon) {
        this.refusal = refusal;
        this.rejection = rejection;
        this.joinEventId = joinEventId;
        this.state = state;
        this.snapshot = snapshot;
        this.commonData = commonData;
        this.recentMessages = recentMessages;
        this.sharedCommon = sharedCommon;
    }

    public static JoinResult rejected(Refusal refusal, String reason) {
        return new JoinResult(refusal, reason, 0, null, null, null, null, null);
    }

    /**
     * @return This accepted answer with only {@code ownCommon} of the common data, the rest in the znode
     *      {@code sharedCommon} ({@link SharedCommonData}).
     */
    public JoinResult sharing(byte[] ownCommon, String sharedCommon) {
        return new JoinResult(null, null, joinEventId, state, snapshot, ownCommon, recentMessages, sharedCommon);
    }

    public static JoinResult accepted(long joinEventId, ClusterState state, byte[] snapshot, byte[] commonData) {
        return accepted(joinEventId, state, snapshot, commonData, null);
    }

    /** @param recentMessages Ids of messages delivered lately, or null. */
    public static JoinResult accepted(long joinEventId, ClusterState state, byte[] snapshot, byte[] commonData,
        byte[] recentMessages) {
        return new JoinResult(null, null, joinEventId, state, snapshot, commonData, recentMessages, null);
    }

    public boolean ok() {
        return rejection == null;
    }

    void write(IonWriter w) throws IOException {
        w.stepIn(IonType.STRUCT);
        w.setFieldName(F.OK);
        w.writeBool(ok());

        if (!ok()) {
            w.setFieldName(F.KIND);
            w.writeString(refusal.wireName);
            w.setFieldName(F.REASON);
            w.writeString(rejection);
        }
        else {
            w.setFieldName(F.ID);
            w.writeInt(joinEventId);
            w.setFieldName(F.CLUSTER);
            state.write(w);
            w.setFieldName(F.SNAPSHOT);
            w.writeBlob(snapshot);
            w.setFieldName(F.COMMON);
            w.writeBlob(commonData);

            if (recentMessages != null) {
                w.setFieldName(RECENT);
                w.writeBlob(recentMessages);
            }

            if (sharedCommon != null) {
                w.setFieldName(SHARED_COMMON);
                w.writeString(sharedCommon);
            }
        }

        w.stepOut();
    }

    static JoinResult read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        Boolean ok = null;
        String reason = null;
        String kind = null;
        long id = -1;
        ClusterState state = null;
        byte[] snapshot = null;
        byte[] common = null;
        byte[] recent = null;
        String shared = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case F.OK: ok = s.boolValue(f); break;
                case F.REASON: reason = s.string(f); break;
                case F.KIND: kind = s.string(f); break;
                case F.ID: id = s.longValue(f); break;
                case F.CLUSTER:
                    // A nested struct: ClusterState.read expects to step into it from here.
                    state = ClusterState.readCurrent(r, what + " state");
                    break;
                case F.SNAPSHOT: snapshot = s.blob(f); break;
                case F.COMMON: common = s.blob(f); break;
                case RECENT: recent = s.blob(f); break;
                case SHARED_COMMON: shared = s.string(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(ok != null, F.OK, what);

        if (!ok) {
            IonStructReader.require(reason != null, F.REASON, what);

            // A refusal without a kind, or of a kind this release does not know, is final.
            return rejected(kind == null ? Refusal.REFUSED : Refusal.ofWireName(kind), reason);
        }

        IonStructReader.require(id >= 0, F.ID, what);
        IonStructReader.require(state != null, F.CLUSTER, what);
        IonStructReader.require(snapshot != null, F.SNAPSHOT, what);
        IonStructReader.require(common != null, F.COMMON, what);

        JoinResult whole = accepted(id, state, snapshot, common, recent);

        return shared == null ? whole : whole.sharing(common, shared);
    }
}
