package io.zkion.discovery.bench.sidebyside;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.zookeeper.ZooDefs.OpCode;

/**
 * A TCP proxy in front of one ZooKeeper server that sums what its clients send, by request type and znode directory:
 * the transaction log ({@link TxnLogTally}) has the data written, this has everything ZooKeeper receives (reads,
 * watches, pings and each request's path and ACL too), which is what issue 23's "bytes sent to ZooKeeper" counts.
 * A multi's operations are counted one by one; its own framing is the row {@code multi}. Counts only while
 * {@link #counting} is set.
 */
final class RequestTally implements AutoCloseable {
    private final ServerSocket server;
    private final int zkPort;
    private final List<Socket> sockets = new ArrayList<>();
    private final Map<String, long[]> sums = new TreeMap<>();
    private final String root;

    volatile boolean counting;

    RequestTally(int zkPort, String root) throws IOException {
        this.zkPort = zkPort;
        this.root = root;
        server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());

        Thread t = new Thread(this::accept, "request-tally-accept");

        t.setDaemon(true);
        t.start();
    }

    String connectString() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket zk;

                try {
                    zk = new Socket("127.0.0.1", zkPort);
                }
                catch (IOException down) {
                    closeQuietly(client); // As if the server refused it: the client tries again, the proxy goes on.
                    continue;
                }

                client.setTcpNoDelay(true);
                zk.setTcpNoDelay(true);

                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(zk);
                }

                pump("request-tally-up", () -> up(client.getInputStream(), zk.getOutputStream()), client, zk);
                pump("request-tally-down", () -> copy(zk.getInputStream(), client.getOutputStream()), client, zk);
            }
        }
        catch (IOException closed) {
            // Closed.
        }
    }

    private interface Io {
        void run() throws IOException;
    }

    private static void pump(String name, Io io, Socket a, Socket b) {
        Thread t = new Thread(() -> {
            try {
                io.run();
            }
            catch (IOException gone) {
                // One side went away: close both, as a network would.
            }
            finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }, name);

        t.setDaemon(true);
        t.start();
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[64 * 1024];

        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            out.write(buf, 0, n);
            out.flush();
        }
    }

    /** Client to server: length-prefixed frames; the first is the session's connect request, without a header. */
    private void up(InputStream raw, OutputStream rawOut) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        DataOutputStream out = new DataOutputStream(rawOut);
        boolean first = true;

        while (true) {
            int len = in.readInt();
            boolean count = counting; // Before the request goes on: its reply may end the window.

            if (first && (len < 0 || len > 1 << 20)) {
                // A four-letter word ("srvr", "ruok"), not a session: passed on as it is.
                out.writeInt(len);
                copy(in, out);
                return;
            }

            if (len < 0)
                throw new IOException("A frame of negative length " + len + ": not a ZooKeeper client");

            byte[] frame = new byte[4 + len];

            ByteBuffer.wrap(frame).putInt(len);
            in.readFully(frame, 4, len);
            out.write(frame); // One write: the request goes on in one segment, as the client sent it.
            out.flush();

            if (count) {
                if (first)
                    add("connect", frame.length);
                else {
                    try {
                        classify(ByteBuffer.wrap(frame, 4, len), frame.length);
                    }
                    catch (RuntimeException unknown) {
                        // Counted, not parsed: the proxy must forward whatever it does not understand.
                        add("unparsed (" + unknown + ")", frame.length);
                    }
                }
            }

            first = false;
        }
    }

    private void classify(ByteBuffer b, int frameBytes) {
        b.getInt(); // xid

        int type = b.getInt();

        if (type == OpCode.multi) {
            int ops = 0;

            while (true) {
                int start = b.position();
                int opType = b.getInt();

                b.get(); // done
                b.getInt(); // err

                if (opType == -1)
                    break;

                String path = string(b);

                skipOp(b, opType);
                add("multi " + name(opType) + " " + directory(path), b.position() - start);
                ops += b.position() - start;
            }

            add("multi", frameBytes - ops);
            return;
        }

        String path = hasPath(type) ? directory(string(b)) : "";

        add(name(type) + (path.isEmpty() ? "" : " " + path), frameBytes);
    }

    /** Skips what follows the path of a multi's operation. */
    private static void skipOp(ByteBuffer b, int type) {
        switch (type) {
            case OpCode.create:
            case OpCode.create2:
            case OpCode.createContainer:
            case OpCode.createTTL:
                buffer(b);
                for (int n = b.getInt(); n > 0; n--) {
                    b.getInt(); // perms
                    string(b); // scheme
                    string(b); // id
                }
                b.getInt(); // flags
                if (type == OpCode.createTTL)
                    b.getLong();
                break;
            case OpCode.setData:
                buffer(b);
                b.getInt(); // version
                break;
            case OpCode.delete:
            case OpCode.check:
                b.getInt(); // version
                break;
            default:
                throw new IllegalStateException("A multi operation of type " + type + " is not known here");
        }
    }

    private static boolean hasPath(int type) {
        switch (type) {
            case OpCode.create: case OpCode.delete: case OpCode.exists: case OpCode.getData: case OpCode.setData:
            case OpCode.getACL: case OpCode.setACL: case OpCode.getChildren: case OpCode.sync:
            case OpCode.getChildren2: case OpCode.check: case OpCode.create2: case OpCode.checkWatches:
            case OpCode.removeWatches: case OpCode.createContainer: case OpCode.deleteContainer:
            case OpCode.createTTL: case OpCode.addWatch: case OpCode.getEphemerals: case OpCode.getAllChildrenNumber:
                return true;
            default:
                return false;
        }
    }

    private static String name(int type) {
        switch (type) {
            case OpCode.create: return "create";
            case OpCode.create2: return "create";
            case OpCode.createContainer: return "createContainer";
            case OpCode.createTTL: return "createTTL";
            case OpCode.delete: return "delete";
            case OpCode.exists: return "exists";
            case OpCode.getData: return "getData";
            case OpCode.setData: return "setData";
            case OpCode.getChildren: return "getChildren";
            case OpCode.getChildren2: return "getChildren2";
            case OpCode.check: return "check";
            case OpCode.ping: return "ping";
            case OpCode.setWatches: return "setWatches";
            case OpCode.setWatches2: return "setWatches2";
            case OpCode.addWatch: return "addWatch";
            case OpCode.removeWatches: return "removeWatches";
            case OpCode.checkWatches: return "checkWatches";
            case OpCode.sync: return "sync";
            case OpCode.auth: return "auth";
            case OpCode.closeSession: return "closeSession";
            default: return "op-" + type;
        }
    }

    private static String string(ByteBuffer b) {
        int n = b.getInt();

        if (n < 0)
            return "";

        if (n > b.remaining())
            throw new IllegalStateException("a string of " + n + " bytes in a request with " + b.remaining() + " left");

        byte[] s = new byte[n];

        b.get(s);

        return new String(s, StandardCharsets.UTF_8);
    }

    private static void buffer(ByteBuffer b) {
        int n = b.getInt();

        if (n > 0)
            b.position(b.position() + n);
    }

    private String directory(String path) {
        return TxnLogTally.directory(path, root);
    }

    private synchronized void add(String key, long bytes) {
        long[] s = sums.computeIfAbsent(key, k -> new long[2]);

        s[0]++;
        s[1] += bytes;
    }

    /** @return Requests and bytes per {@code per} (a join, a cache create), largest first. */
    synchronized String markdown(String title, String per, double count) {
        StringBuilder b = new StringBuilder("### ").append(title).append("\n\n| request and directory | requests per ")
            .append(per).append(" | bytes per ").append(per).append(" |\n| --- | ---: | ---: |\n");
        List<Map.Entry<String, long[]>> rows = new ArrayList<>(sums.entrySet());
        long total = 0;

        rows.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));

        for (Map.Entry<String, long[]> e : rows) {
            b.append("| `").append(e.getKey()).append("` | ").append(String.format("%.1f", e.getValue()[0] / count))
                .append(" | ").append(String.format("%,.0f", e.getValue()[1] / count)).append(" |\n");
            total += e.getValue()[1];
        }

        return b.append("| all | | ").append(String.format("%,.0f", total / count)).append(" |\n").toString();
    }

    synchronized void reset() {
        sums.clear();
    }

    @Override public void close() {
        closeQuietly(server);

        synchronized (sockets) {
            sockets.forEach(RequestTally::closeQuietly);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        }
        catch (Exception ignored) {
            // Closing anyway.
        }
    }
}
