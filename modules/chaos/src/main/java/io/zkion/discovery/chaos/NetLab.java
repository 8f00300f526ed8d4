package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Hosts of their own on this machine: each named node gets a network namespace with one address on a bridge, and
 * the bridge's own address stays with the controller and the ZooKeeper servers. So the link between two nodes can
 * be cut, with iptables inside their namespaces, while both still reach ZooKeeper. Needs root, iproute2, iptables
 * and ss; {@link #unavailable()} says why it cannot be had.
 */
final class NetLab implements AutoCloseable {
    /**
     * Which lab this is (zkion.chaos.lab, 0 to 9), so that runs side by side on one machine each have their own
     * bridge, subnet and names, and one run's clean-up never removes another's. Lab 0 has the names runs always had.
     */
    private static final int LAB = lab();
    /** Names unlikely to meet anything else on a machine: the docker testbed uses 172.28.5.0/24. */
    private static final String BRIDGE = "zkionlab" + LAB;
    private static final String PREFIX = LAB == 0 ? "zkion-" : "zkion" + LAB + "-";
    private static final String LINK = LAB == 0 ? "zkl-" : "zkl" + LAB + "-";
    private static final String NET = "10.231." + LAB + ".";
    /** The controller's and ZooKeeper's address, as the nodes reach it. */
    static final String HOST = NET + "1";

    /** Node name to its address; the namespace is PREFIX + name. */
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private boolean forwardRule;

    /** @return Why no lab can be built here, or null when it can: tried for real, root alone may lack the rights. */
    static String unavailable() {
        installIptables();

        for (String tool : new String[] {"ip", "iptables", "ss", "tc"}) {
            try {
                run(10, "which", tool);
            }
            catch (IOException e) {
                return tool + " is not installed";
            }
        }

        String probe = PREFIX + "probe";

        try {
            quietly("ip", "netns", "del", probe);
            run(10, "ip", "netns", "add", probe);

            try {
                run(10, "ip", "netns", "exec", probe, "iptables", "-S", "INPUT");
                // What slow() needs of the kernel: a token bucket, and iptables' random match.
                run(10, "ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", "256kbit",
                    "burst", "4kb", "latency", "100ms");
                run(10, "ip", "netns", "exec", probe, "iptables", "-I", "INPUT", "-m", "statistic", "--mode", "random",
                    "--probability", "0.05", "-j", "DROP");
            }
            finally {
                quietly("ip", "netns", "del", probe);
            }

            return null;
        }
        catch (IOException e) {
            return "cannot make a network namespace with iptables and a token bucket in it (running as " + System.getProperty("user.name")
                + "): " + e.getMessage();
        }
    }

    /** Whether this JVM tried to install iptables already: once is enough, and apt-get is slow when it fails. */
    private static boolean installTried;

    /**
     * Installs Debian's iptables where it is missing and this is root on a Debian machine, as the docker testbed
     * installs its engine: a fresh CI machine has iproute2 and ss, not iptables, and the network faults would
     * otherwise never run there. Once per JVM; {@code -Dzkion.chaos.installIptables=false} leaves the machine as it is.
     */
    private static synchronized void installIptables() {
        if (installTried || !Boolean.parseBoolean(System.getProperty("zkion.chaos.installIptables", "true")))
            return;

        installTried = true;

        try {
            if (quietly("which", "iptables") || !quietly("which", "apt-get") || !"0".equals(run(10, "id", "-u").trim()))
                return;

            // Output to nowhere: apt's could fill the pipe, which is read only once the command ends.
            if (!apt("install") && apt("update"))
                apt("install");
        }
        catch (IOException e) {
            System.out.println("[chaos] could not install iptables for the network faults: " + e.getMessage());
        }
    }

    /** Runs {@code apt-get <what>} for iptables, bounded, its output discarded; @return whether it succeeded. */
    private static boolean apt(String what) {
        List<String> cmd = new ArrayList<>(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", what, "-y", "-q"));

        if (what.equals("install"))
            cmd.add("iptables");

        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();

            if (p.waitFor(300, TimeUnit.SECONDS))
                return p.exitValue() == 0;

            p.destroy(); // SIGTERM: apt-get releases its locks.
            return false;
        }
        catch (IOException e) {
            return false;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Builds the bridge and a namespace for each of {@code names}, first removing what a killed run left. */
    NetLab(List<String> names) throws IOException {
        removeLeftovers(names);

        try {
            build(names);
        }
        catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void build(List<String> names) throws IOException {
        run(10, "ip", "link", "add", BRIDGE, "type", "bridge");
        run(10, "ip", "addr", "add", HOST + "/24", "dev", BRIDGE);
        run(10, "ip", "link", "set", BRIDGE, "up");

        // Docker's engine sets the FORWARD policy to DROP and has the bridge's frames pass iptables: let ours through.
        run(10, "iptables", "-I", "FORWARD", "-i", BRIDGE, "-o", BRIDGE, "-j", "ACCEPT");
        forwardRule = true;

        int i = 10;

        for (String name : names) {
            String ns = PREFIX + name;
            String addr = NET + (i++);
            String host = hostSide(name);
            String inner = innerSide(name);

            if (host.length() > 15 || i > 250)
                throw new IllegalArgumentException("No host for " + name + ": names up to 8 characters, 240 hosts");

            run(10, "ip", "netns", "add", ns);
            addresses.put(name, addr); // Before its links: close() deletes what was begun.
            run(10, "ip", "link", "add", host, "type", "veth", "peer", "name", inner);
            run(10, "ip", "link", "set", inner, "netns", ns);
            run(10, "ip", "link", "set", host, "master", BRIDGE);
            run(10, "ip", "link", "set", host, "up");
            inNs(name, "ip", "addr", "add", addr + "/24", "dev", inner);
            inNs(name, "ip", "link", "set", inner, "up");
            inNs(name, "ip", "link", "set", "lo", "up");
        }
    }

    /** @return The address of node {@code name}. */
    String address(String name) {
        String a = addresses.get(name);

        if (a == null)
            throw new IllegalArgumentException("No host in the lab for " + name);

        return a;
    }

    boolean has(String name) {
        return addresses.containsKey(name);
    }

    /** @return The words that run a command as host {@code name}: put before it. */
    List<String> launcher(String name) {
        address(name);

        return Arrays.asList("ip", "netns", "exec", PREFIX + name);
    }

    /**
     * Cuts the link between {@code a} and {@code b} both ways, packets dropped, and closes the connections they had
     * open to each other, as a link that flaps and stays down does. Without the close, connections already open keep
     * waiting on TCP's retransmissions and Ignite reports nothing for minutes (docs/operations.md).
     */
    void cut(String a, String b) throws IOException {
        drop(a, address(b));
        drop(b, address(a));
        inNs(a, "ss", "-K", "dst", address(b));
        inNs(b, "ss", "-K", "dst", address(a));
    }

    /** Cuts host {@code name} from ZooKeeper (the bridge's address), its links to the other hosts kept. */
    void cutFromZooKeeper(String name) throws IOException {
        drop(name, HOST);
        inNs(name, "ss", "-K", "dst", HOST);
    }

    /**
     * Makes every link of host {@code name} slow both ways: a token bucket of {@code kbit} on each end of its veth (a
     * queue of at most {@code queueMs} behind it, what comes on top dropped) and {@code lossPercent} of its packets
     * dropped at random, so that TCP retransmits. A bandwidth and loss fault, not a fixed delay: netem is not in every
     * kernel (not in this machine's).
     */
    void slow(String name, int kbit, int queueMs, int lossPercent) throws IOException {
        String tbf = "root tbf rate " + kbit + "kbit burst 4kb latency " + queueMs + "ms";

        inNs(name, concat(List.of("tc", "qdisc", "add", "dev", innerSide(name)), tbf.split(" ")));
        run(10, concat(List.of("tc", "qdisc", "add", "dev", hostSide(name)), tbf.split(" ")));

        String p = String.valueOf(lossPercent / 100.0);

        inNs(name, "iptables", "-I", "INPUT", "-m", "statistic", "--mode", "random", "--probability", p, "-j", "DROP");
        inNs(name, "iptables", "-I", "OUTPUT", "-m", "statistic", "--mode", "random", "--probability", p, "-j", "DROP");
    }

    /** Removes every cut and slow-down of host {@code name}. */
    void heal(String name) throws IOException {
        inNs(name, "iptables", "-F", "INPUT");
        inNs(name, "iptables", "-F", "OUTPUT");

        // Only where slow() put one: deleting a root qdisc that is not there fails, and that is no fault.
        quietly(concat(launcher(name), "tc", "qdisc", "del", "dev", innerSide(name), "root"));
        quietly("tc", "qdisc", "del", "dev", hostSide(name), "root");
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);

        all.addAll(Arrays.asList(tail));

        return all.toArray(new String[0]);
    }

    private void drop(String name, String peer) throws IOException {
        inNs(name, "iptables", "-I", "INPUT", "-s", peer, "-j", "DROP");
        inNs(name, "iptables", "-I", "OUTPUT", "-d", peer, "-j", "DROP");
    }

    private void inNs(String name, String... cmd) throws IOException {
        run(10, concat(launcher(name), cmd));
    }

    @Override public void close() {
        for (String name : addresses.keySet()) {
            quietly("ip", "netns", "del", PREFIX + name);
            quietly("ip", "link", "del", hostSide(name)); // Gone with the namespace, unless a process still holds it.
        }

        addresses.clear();
        quietly("ip", "link", "del", BRIDGE);

        if (forwardRule)
            quietly("iptables", "-D", "FORWARD", "-i", BRIDGE, "-o", BRIDGE, "-j", "ACCEPT");

        forwardRule = false;
    }

    /**
     * What a run killed before its close left: our namespaces (a node process that outlived it keeps its namespace
     * alive, so the veths go by name), the bridge, the rule.
     */
    private static void removeLeftovers(List<String> names) throws IOException {
        for (String line : run(10, "ip", "netns", "list").split("\n")) {
            String ns = line.trim().split(" ")[0];

            if (ns.startsWith(PREFIX))
                quietly("ip", "netns", "del", ns);
        }

        for (String name : names)
            quietly("ip", "link", "del", hostSide(name));

        quietly("ip", "link", "del", BRIDGE);

        // The rule may be there more than once: iptables -D removes one a call, and fails when none is left.
        for (int i = 0; i < 10 && quietly("iptables", "-D", "FORWARD", "-i", BRIDGE, "-o", BRIDGE, "-j", "ACCEPT"); i++)
            ;
    }

    private static int lab() {
        int lab = Integer.getInteger("zkion.chaos.lab", 0);

        if (lab < 0 || lab > 9)
            throw new IllegalArgumentException("zkion.chaos.lab must be 0 to 9: " + lab);

        return lab;
    }

    /** @return The name of {@code name}'s veth end in its namespace. */
    private static String innerSide(String name) {
        return LINK + name + "-n";
    }

    /** @return The name of {@code name}'s veth end on the bridge. */
    private static String hostSide(String name) {
        return LINK + name + "-h";
    }

    private static boolean quietly(String... cmd) {
        try {
            run(10, cmd);
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code cmd}, bounded; @return its output; throws with the output when it fails. */
    private static String run(int timeoutSec, String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();

        try {
            if (!p.waitFor(timeoutSec, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not end within " + timeoutSec + " s");
            }

            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            if (p.exitValue() != 0)
                throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out.trim());

            return out;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " was interrupted", e);
        }
    }
}
