package io.zkion.discovery.zk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        return firstAnswer(connectString, timeoutMs, got -> got.contains("Mode:") ? got : null) != null;
    }

    /**
     * @return The ZooKeeper version the first server of {@code connectString} that answers {@code srvr} names, such
     *      as {@code 3.8.4}; null if none answers (down, a secure port, or {@code srvr} not allowed).
     */
    public static String version(String connectString, int timeoutMs) {
        return firstAnswer(connectString, timeoutMs, got -> {
            Matcher m = VERSION.matcher(got);

            return m.find() ? m.group(1) : null;
        });
    }

    private static final Pattern VERSION = Pattern.compile("Zookeeper version: ([0-9]+\\.[0-9]+\\.[0-9]+)");

    /** @return What {@code read} makes of the first server's answer it makes something of; null if none. */
    private static String firstAnswer(String connectString, int timeoutMs, Function<String, String> read) {
        if (connectString == null)
            return null;

        int chroot = connectString.indexOf('/');
        String hosts = chroot >= 0 ? connectString.substring(0, chroot) : connectString;

        for (String hp : hosts.split(",")) {
            int colon = hp.lastIndexOf(':');

            try {
                String host = colon > 0 ? hp.substring(0, colon).trim() : hp.trim();
                int port = colon > 0 ? Integer.parseInt(hp.substring(colon + 1).trim()) : 2181;
                String got = srvr(host, port, timeoutMs);
                String made = got == null ? null : read.apply(got);

                if (made != null)
                    return made;
            }
            catch (NumberFormatException ignored) {
                // Not an address this check understands: the client's own reconnection is all there is.
            }
        }

        return null;
    }

    /** @return The server's answer to {@code srvr}; null if there is none. */
    private static String srvr(String host, int port, int timeoutMs) {
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

            return got.toString();
        }
        catch (IOException | RuntimeException e) {
            return null; // Down, silent, not serving, or a secure port: no evidence either way.
        }
    }
}
