package io.zkion.discovery.engine;

import org.apache.ignite.internal.util.worker.GridWorker;
import org.apache.ignite.spi.discovery.IgniteDiscoveryThread;

/**
 * The one thread that applies events and runs the coordinator. Marked as a discovery thread: Ignite must not
 * block it waiting on work that itself needs discovery (binary metadata, connections).
 */
final class DiscoveryThread extends Thread implements IgniteDiscoveryThread {
    DiscoveryThread(Runnable r, String name) {
        super(r, name);
        setDaemon(true);
    }

    /** No Ignite worker watches this thread; Ignite handles a null here. */
    @Override public GridWorker worker() {
        return null;
    }
}
