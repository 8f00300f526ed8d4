package io.zkion.discovery.bench.scale;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.ignite.lang.IgniteBiPredicate;

/**
 * The member JVMs' stand-in for Ignite's communication, which ZkIon's outage guard asks its peers through: one TCP
 * listener per JVM, one connection to each other JVM with a writer thread of its own, so that a send only queues.
 * A frame names the member it is for and the member it is from. Messages between members of one JVM are handed over
 * on a thread of their own, never on the sender's.
 */
final class SimComms implements AutoCloseable {
    /** The node attribute that names the JVM's port. */
    static final String PORT_ATTR = "zkion.sim.comms.port";

    private static final byte LONGS = 1;

    private static final byte OBJECT = 2;

    private final ServerSocket server;
    private final Map<UUID, Map<String, IgniteBiPredicate<UUID, Object>>> listeners = new ConcurrentHashMap<>();
    private final Map<Integer, BlockingQueue<byte[]>> outs = new ConcurrentHashMap<>();
    private final ExecutorService local = Executors.newSingleThreadExecutor(r -> daemon(r, "sim-comms-local"));

    SimComms() throws IOException {
        server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        daemon(this::accept, "sim-comms-accept").start();
    }

    int port() {
        return server.getLocalPort();
    }

    void listen(UUID member, String topic, IgniteBiPredicate<UUID, Object> p) {
        listeners.computeIfAbsent(member, k -> new ConcurrentHashMap<>()).put(topic, p);
    }

    void unlisten(UUID member, String topic) {
        Map<String, IgniteBiPredicate<UUID, Object>> m = listeners.get(member);

        if (m != null)
            m.remove(topic);
    }

    /** Queues {@code msg} for member {@code to} in the JVM listening on {@code port}. */
    void send(int port, UUID to, UUID from, String topic, Serializable msg) throws IOException {
        if (port == port()) {
            local.execute(() -> deliver(to, from, topic, msg));
            return;
        }

        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);

        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(to.getMostSignificantBits());
            out.writeLong(to.getLeastSignificantBits());
            out.writeLong(from.getMostSignificantBits());
            out.writeLong(from.getLeastSignificantBits());
            out.writeUTF(topic);

            // The outage guard's messages are long[3]: written as they are, as Ignite's binary marshaller would.
            if (msg instanceof long[]) {
                long[] l = (long[])msg;

                out.writeByte(LONGS);
                out.writeInt(l.length);

                for (long x : l)
                    out.writeLong(x);
            }
            else {
                out.writeByte(OBJECT);

                ObjectOutputStream oos = new ObjectOutputStream(out);

                oos.writeObject(msg);
                oos.flush();
            }
        }

        outs.computeIfAbsent(port, this::connect).add(bytes.toByteArray());
    }

    private BlockingQueue<byte[]> connect(int port) {
        BlockingQueue<byte[]> q = new LinkedBlockingQueue<>();

        daemon(() -> {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()))) {
                while (true) {
                    byte[] frame = q.take();

                    out.writeInt(frame.length);
                    out.write(frame);

                    if (q.isEmpty())
                        out.flush();
                }
            }
            catch (IOException | InterruptedException e) {
                outs.remove(port, q); // That JVM is gone: what was queued for it is lost, as with a dead peer.
            }
        }, "sim-comms-to-" + port).start();

        return q;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();

                daemon(() -> read(s), "sim-comms-from-" + s.getPort()).start();
            }
            catch (IOException e) {
                return; // Closed.
            }
        }
    }

    private void read(Socket s) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()))) {
            while (true) {
                byte[] frame = new byte[in.readInt()];

                in.readFully(frame);

                DataInputStream f = new DataInputStream(new ByteArrayInputStream(frame));
                UUID to = new UUID(f.readLong(), f.readLong());
                UUID from = new UUID(f.readLong(), f.readLong());
                String topic = f.readUTF();
                Object msg;

                if (f.readByte() == LONGS) {
                    long[] l = new long[f.readInt()];

                    for (int i = 0; i < l.length; i++)
                        l[i] = f.readLong();

                    msg = l;
                }
                else
                    msg = new ObjectInputStream(f).readObject();

                deliver(to, from, topic, msg);
            }
        }
        catch (IOException | ClassNotFoundException e) {
            // The other JVM is gone.
        }
    }

    private void deliver(UUID to, UUID from, String topic, Object msg) {
        Map<String, IgniteBiPredicate<UUID, Object>> m = listeners.get(to);
        IgniteBiPredicate<UUID, Object> p = m == null ? null : m.get(topic);

        if (p != null && !p.apply(from, msg))
            m.remove(topic, p);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);

        t.setDaemon(true);

        return t;
    }

    @Override public void close() throws IOException {
        server.close();
        local.shutdownNow();
    }
}
