package io.zkion.discovery.zk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Asks the servers of a connect string, with ZooKeeper's {@code srvr} command (the one its default whitelist allows),
 * whether one of them serves: it answers with its mode (leader, follower, standalone) only while it has a quorum. A
 * node that gets such an answer is not cut off from the ensemble, whatever its client's connection does now.
 */
public final class ServingCheck {
    private ServingCheck() {
    }

    /**
     * @param connectString {@code host:port[,host:port...][/chroot]}, as ZooKeeper's client takes it.
     * @param timeoutMs Bound on each server's connection and on its answer.
     * @return Whether a server of {@code connectString} answered that it serves.
     */
    public static boolean anyServing(String connectString, int timeoutMs) {
        if (connectString == null)
            return false;

        int chroot = connectString.indexOf('/');
        String hosts = chroot >= 0 ? connectString.substring(0, chroot) : connectString;

        for (String hp : hosts.split(",")) {
            int colon = hp.lastIndexOf(':');

            try {
                String host = colon > 0 ? hp.substring(0, colon).trim() : hp.trim();
                int port = colon > 0 ? Integer.parseInt(hp.substring(colon + 1).trim()) : 2181;

                if (serving(host, port, timeoutMs))
                    return true;
            }
            catch (NumberFormatException ignored) {
                // Not an address this check understands: the client's own reconnection is all there is.
            }
        }

        return false;
    }

    private static boolean serving(String host, int port, int timeoutMs) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            s.setSoTimeout(timeoutMs);

            OutputStream out = s.getOutputStream();

            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = s.getInputStream();
            byte[] buf = new byte[512];
            StringBuilder got = new StringBuilder();

            for (int n; got.length() < 4096 && (n = in.read(buf)) >= 0; )
                got.append(new String(buf, 0, n, StandardCharsets.US_ASCII));

            return got.indexOf("Mode:") >= 0;
        }
        catch (IOException | RuntimeException e) {
            return false; // Down, silent, not serving, or a secure port: no evidence either way.
        }
    }
}
