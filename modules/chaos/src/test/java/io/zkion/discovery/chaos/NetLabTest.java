package io.zkion.discovery.chaos;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Assume;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The slow link the chaos run injects (FaultKind.SLOW_LINK) is slow, loses no data (TCP makes up for the dropped
 * packets), and is gone after heal. Needs what the network faults need (root, iproute2, iptables); skipped without.
 */
public class NetLabTest {
    private static final int BYTES = 64 * 1024;

    @Test(timeout = 120_000) public void aSlowLinkIsSlowLosesNothingAndHeals() throws Exception {
        String why = NetLab.unavailable();

        Assume.assumeTrue("no hosts of their own: " + why, why == null);

        try (NetLab lab = new NetLab(List.of("t1"));
             ServerSocket server = new ServerSocket(0, 5, InetAddress.getByName(NetLab.HOST))) {
            Thread sender = new Thread(() -> serve(server), "netlab-test-sender");

            sender.setDaemon(true);
            sender.start();

            lab.slow("t1", NetworkFaults.SLOW_KBIT, NetworkFaults.SLOW_QUEUE_MS, NetworkFaults.SLOW_LOSS_PERCENT);

            long t0 = System.nanoTime();

            assertEquals("bytes read over the slow link", String.valueOf(BYTES), fetch(lab, server.getLocalPort()));

            long slowMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

            // A lower bound, not a timing target: the token bucket lets no more than its rate through (64 KiB is
            // 2 s at 256 kbit/s, less the 4 KiB burst).
            assertTrue("64 KiB over the slow link took only " + slowMs + " ms", slowMs >= 1_500);

            lab.heal("t1");

            assertEquals("bytes read after heal", String.valueOf(BYTES), fetch(lab, server.getLocalPort()));
        }
    }

    /** Sends {@link #BYTES} to each connection, then closes it. */
    private static void serve(ServerSocket server) {
        byte[] data = new byte[BYTES];

        while (!server.isClosed()) {
            try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
                out.write(data);
            }
            catch (Exception e) {
                return;
            }
        }
    }

    /** @return How many bytes host t1 read from the server's port, as {@code wc -c} counts them. */
    private static String fetch(NetLab lab, int port) throws Exception {
        List<String> cmd = new ArrayList<>(lab.launcher("t1"));

        cmd.addAll(List.of("bash", "-c", "exec 3<>/dev/tcp/" + NetLab.HOST + '/' + port + "; cat <&3 | wc -c"));

        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();

        assertTrue("the read did not end within 60 s", p.waitFor(60, TimeUnit.SECONDS));

        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }
}
