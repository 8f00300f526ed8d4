package io.zkion.discovery.internal;

/**
 * Threads of one node named the way Ignite names a node's threads ({@code name%instance%}), so that a dump of a JVM
 * running several nodes tells them apart; daemons, so that none keeps a JVM alive.
 */
public final class NodeThreads {
    private NodeThreads() {
    }

    /** @return A daemon thread running {@code r}, named {@code name%instance%}, not started; null instance: {@code %%}. */
    public static Thread daemon(Runnable r, String name, String instance) {
        Thread t = new Thread(r, name + '%' + (instance == null ? "" : instance) + '%');

        t.setDaemon(true);

        return t;
    }
}
