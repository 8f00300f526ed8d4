package io.zkion.discovery.examples;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/** A single ZooKeeper server in this JVM, on a free loopback port, with its data in a temporary folder. */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private final ZooKeeperServerEmbedded server;
    private final int port;
    private final Path dir;

    public EmbeddedZooKeeper() throws Exception {
        dir = Files.createTempDirectory("zkion-demo-zk");
        port = freePort();

        Properties cfg = new Properties();

        cfg.setProperty("clientPort", Integer.toString(port));
        cfg.setProperty("clientPortAddress", "127.0.0.1");
        cfg.setProperty("tickTime", "2000");
        cfg.setProperty("initLimit", "10");
        cfg.setProperty("syncLimit", "5");
        cfg.setProperty("admin.enableServer", "false");

        // LOG_ONLY: a ZooKeeper failure must not exit the demo's JVM.
        server = ZooKeeperServerEmbedded.builder().baseDir(dir).configuration(cfg).exitHandler(ExitHandler.LOG_ONLY).build();
        server.start();
    }

    public String connectString() {
        return "127.0.0.1:" + port;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override public void close() {
        server.close();
    }
}
