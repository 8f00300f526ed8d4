package io.zkion.discovery.chaos;

import java.io.IOException;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * A ZooKeeper server of the ensemble, as QuorumPeerMain runs it, that ends when its controller does: it exits
 * once its stdin closes, so a controller killed outright leaves no server behind.
 */
public final class ZkServerMain {
    private ZkServerMain() {
    }

    public static void main(String[] args) {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Nothing is sent; only the end of the stream matters.
                }
            }
            catch (IOException ignored) {
                // Same as the end of the stream.
            }

            Runtime.getRuntime().halt(1);
        }, "controller-watch");

        watch.setDaemon(true);
        watch.start();

        QuorumPeerMain.main(args);
    }
}
