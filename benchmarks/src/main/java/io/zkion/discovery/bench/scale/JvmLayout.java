package io.zkion.discovery.bench.scale;

import java.util.ArrayList;
import java.util.List;

/**
 * How a shape's members are spread over JVMs. The first member alone in a JVM of its own: it founds the cluster, so it
 * is the coordinator, and killing its JVM kills the coordinator and nothing else. A tenth of the members in another:
 * killed at once, they are the mass failure. One more member alone: its JVM is paused while the others go on. The
 * rest in JVMs of at most {@link #PER_JVM}: on 2 cores every JVM's own
 * JIT and GC threads cost, so few large JVMs leave most of the CPU to the members and ZooKeeper.
 */
final class JvmLayout {
    /** Members per bulk JVM: about 1 GB of heap each. */
    static final int PER_JVM = 300;

    /** One JVM's members. */
    static final class Part {
        final String name;
        final int servers;
        final int clients;

        Part(String name, int servers, int clients) {
            this.name = name;
            this.servers = servers;
            this.clients = clients;
        }
    }

    final Part coordinator;
    final Part mass;
    final Part paused;
    final List<Part> bulk = new ArrayList<>();

    JvmLayout(Shape s) {
        coordinator = new Part("crd", 1, 0);

        int massServers = Math.max(1, Math.round(s.servers * 0.1f));
        int massClients = Math.round(s.clients * 0.1f);

        if (massServers >= s.servers - 2)
            throw new IllegalArgumentException(s + ": too few servers for a coordinator, a tenth and the rest");

        mass = new Part("mass", massServers, massClients);

        paused = new Part("paused", 1, 0);

        int servers = s.servers - 2 - massServers;
        int clients = s.clients - massClients;
        int jvms = Math.max(1, (servers + clients + PER_JVM - 1) / PER_JVM);

        for (int i = 0; i < jvms; i++) {
            int sv = servers / jvms + (i < servers % jvms ? 1 : 0);
            int cl = clients / jvms + (i < clients % jvms ? 1 : 0);

            bulk.add(new Part("bulk" + i, sv, cl));
        }
    }

    List<Part> all() {
        List<Part> l = new ArrayList<>();

        l.add(coordinator);
        l.add(mass);
        l.add(paused);
        l.addAll(bulk);

        return l;
    }

    @Override public String toString() {
        StringBuilder sb = new StringBuilder();

        for (Part p : all())
            sb.append(sb.length() == 0 ? "" : ", ").append(p.name).append(' ').append(p.servers + p.clients);

        return sb.toString();
    }
}
