package io.zkion.discovery.internal;

/** A coordinator's commit was refused because another wrote the cluster state: it is no longer coordinator. */
final class FencedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FencedException(String msg) {
        super("No longer the coordinator: " + msg);
    }
}
