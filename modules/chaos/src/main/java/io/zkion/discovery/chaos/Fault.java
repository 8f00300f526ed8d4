package io.zkion.discovery.chaos;

import java.util.function.BooleanSupplier;

/** One injected fault and how the cluster came back from it. */
final class Fault {
    final int index;
    final FaultKind kind;
    String target;
    /** When the fault took effect (for a pause: when the node was continued). */
    long injectedAt;
    /** From {@link #injectedAt} until the cluster settled again; -1 if it did not. */
    long recoveryMs = -1;
    String note = "";
    /** What the run did to clear Ignite's orphaned transaction on the way ({@link OrphanRemedy}); the fault's own note
     *  is set when it is injected, after a client restart that may have needed this. */
    String remedy = "";
    /** Whether the fault has taken effect (a node out, a rejoin done, a reply lost): until then it has not recovered. */
    BooleanSupplier effect = () -> true;

    /** @return The note and the remedy, as the report gives them. */
    String fullNote() {
        return remedy.isEmpty() ? note : note.isEmpty() ? remedy : note + "; " + remedy;
    }

    Fault(int index, FaultKind kind) {
        this.index = index;
        this.kind = kind;
    }
}
