package io.zkion.discovery.codec.msg;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.ion.IonSchema.F;
import io.zkion.discovery.codec.ion.IonStructReader;

/**
 * One node's answer in a communication-failure round (added in 0.2.0): which nodes of the round it could reach through
 * Ignite's communication, or why it could not tell. The coordinator reads every node's answer and hands them to
 * Ignite's resolver as the connectivity matrix.
 */
public final class ConnectivityReport {
    /** Field names added in 0.2.0: local symbols, the shared table is left as it is. */
    static final String ROUND = "round";
    static final String REACHED = "reached";
    static final String ERROR = "error";

    public final UUID round;
    public final UUID node;

    /** The nodes of the round this node reached, itself included. */
    public final List<UUID> reached;

    /** Why the check failed, if it did: the coordinator then calls no resolver, as with the stock SPI. */
    public final String error;

    public ConnectivityReport(UUID round, UUID node, List<UUID> reached, String error) {
        this.round = round;
        this.node = node;
        this.reached = Collections.unmodifiableList(new ArrayList<>(reached));
        this.error = error;
    }

    void write(IonWriter w) throws IOException {
        List<String> ids = new ArrayList<>(reached.size());

        for (UUID id : reached)
            ids.add(id.toString());

        w.stepIn(IonType.STRUCT);
        w.setFieldName(ROUND);
        w.writeString(round.toString());
        w.setFieldName(F.ID);
        w.writeString(node.toString());
        IonStructReader.writeStrings(w, REACHED, ids);

        if (error != null) {
            w.setFieldName(ERROR);
            w.writeString(error);
        }

        w.stepOut();
    }

    static ConnectivityReport read(IonReader r, String what) {
        IonStructReader s = IonStructReader.enter(r, what);
        UUID round = null;
        UUID node = null;
        List<String> reached = null;
        String error = null;

        for (String f = s.nextField(); f != null; f = s.nextField()) {
            switch (f) {
                case ROUND: round = s.uuid(f); break;
                case F.ID: node = s.uuid(f); break;
                case REACHED: reached = s.strings(f); break;
                case ERROR: error = s.string(f); break;
                default:
            }
        }

        s.leave();

        IonStructReader.require(round != null, ROUND, what);
        IonStructReader.require(node != null, F.ID, what);
        IonStructReader.require(reached != null, REACHED, what);

        List<UUID> ids = new ArrayList<>(reached.size());

        for (String id : reached) {
            try {
                ids.add(UUID.fromString(id));
            }
            catch (IllegalArgumentException e) {
                throw new CorruptPayloadException(what + ": '" + id + "' in field "
                    + REACHED + " is not a node id");
            }
        }

        return new ConnectivityReport(round, node, ids, error);
    }

    @Override public String toString() {
        return "report of " + node + " in round " + round + ": reached " + reached
            + (error != null ? ", error " + error : "");
    }
}
