package io.zkion.discovery.coordinator;

/** A coordinator's commit was refused because another wrote the cluster state: it is no longer coordinator. */
public final class FencedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FencedException(String msg) {
        super("No longer the coordinator: " + msg);
    }
}
