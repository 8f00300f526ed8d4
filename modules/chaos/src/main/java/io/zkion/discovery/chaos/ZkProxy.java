package io.zkion.discovery.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of each server of the ensemble, for one node: cut, it goes silent (it reads and drops what
 * the node sends, and sends nothing back, as a dead network path would) while the ensemble stays healthy for
 * everyone else. Mended, it drops the silent connections, so that the node's client connects anew.
 */
final class ZkProxy implements AutoCloseable {
    private final List<ServerSocket> listeners = new ArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    /** @param upstreamPorts The ensemble's client ports on loopback. */
    ZkProxy(int[] upstreamPorts) throws IOException {
        for (int port : upstreamPorts) {
            ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

            listeners.add(ss);
            daemon("zk-proxy-accept-" + port, () -> accept(ss, port));
        }
    }

    /** @return The connect string that goes through this proxy. */
    String connectString() {
        StringBuilder sb = new StringBuilder();

        for (ServerSocket ss : listeners)
            sb.append(sb.length() == 0 ? "" : ",").append("127.0.0.1:").append(ss.getLocalPort());

        return sb.toString();
    }

    /** The path goes silent both ways, for connections open now and any made later. */
    void cut() {
        cut = true;
    }

    /** The path works again; connections held silent meanwhile are closed, as a router restart would. */
    void mend() {
        cut = false;
        closeOpen();
    }

    private void accept(ServerSocket ss, int upstreamPort) {
        while (!ss.isClosed()) {
            try {
                Socket down = ss.accept();

                open.add(down);

                if (cut)
                    daemon("zk-proxy-silent", () -> pump(down, null));
                else {
                    Socket up = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);

                    open.add(up);
                    daemon("zk-proxy-down", () -> pump(down, up));
                    daemon("zk-proxy-up", () -> pump(up, down));
                }
            }
            catch (IOException e) {
                // Closed, or the server is down: the node's client sees its connection refused, and tries another.
            }
        }
    }

    /** Copies {@code from} to {@code to} while not cut; cut, reads and drops. Ends both sockets at the end. */
    private void pump(Socket from, Socket to) {
        byte[] buf = new byte[8192];

        try (InputStream in = from.getInputStream()) {
            OutputStream out = to == null ? null : to.getOutputStream();

            for (int n; (n = in.read(buf)) >= 0; ) {
                if (!cut && out != null) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            }
        }
        catch (IOException ignored) {
            // One side closed: close the other below.
        }
        finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeOpen() {
        for (Socket s : open)
            closeQuietly(s);

        open.clear();
    }

    private static void closeQuietly(Socket s) {
        try {
            if (s != null)
                s.close();
        }
        catch (IOException ignored) {
            // Closed already.
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);

        t.setDaemon(true);
        t.start();
    }

    @Override public void close() {
        for (ServerSocket ss : listeners) {
            try {
                ss.close();
            }
            catch (IOException ignored) {
                // Closed already.
            }
        }

        closeOpen();
    }
}
