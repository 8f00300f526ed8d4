package io.zkion.discovery.chaos;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import io.zkion.discovery.tools.IonStateDump;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * Acks that did not follow their originals within the checks' in-flight allowance, grouped by the check that first
 * saw them. Each group is one violation: an ack that comes only when something else changes the cluster is not
 * one Ignite can wait for. When a group is first seen, ZooKeeper's state is dumped beside the node logs, so that
 * the members' acks there can be set against what the coordinator logged; at the end each group says when, and
 * after which fault, its acks came.
 */
final class HeldAcks {
    private static final class Group {
        final int fault;
        final long firstDelivered;
        final Set<String> tags;
        final Set<String> waiting;
        final String coordinator;
        final String dump;

        Group(int fault, long firstDelivered, Set<String> tags, Set<String> waiting, String coordinator, String dump) {
            this.fault = fault;
            this.firstDelivered = firstDelivered;
            this.tags = tags;
            this.waiting = waiting;
            this.coordinator = coordinator;
            this.dump = dump;
        }
    }

    private final RunSettings settings;
    private final Set<String> seen = new HashSet<>();
    private final List<Group> groups = new ArrayList<>();

    HeldAcks(RunSettings settings) {
        this.settings = settings;
    }

    /** Takes a check's held acks ("node tag deliveredAt"); a group of the ones not seen before, if any. */
    void note(int fault, Collection<String> held, NodeProcess coordinator) {
        Set<String> tags = new TreeSet<>();
        Set<String> waiting = new TreeSet<>();
        long first = Long.MAX_VALUE;

        for (String h : held) {
            String[] p = h.split(" ");

            if (seen.contains(p[1]))
                continue;

            tags.add(p[1]);
            waiting.add(p[0]);
            first = Math.min(first, Long.parseLong(p[2]));
        }

        if (tags.isEmpty())
            return;

        seen.addAll(tags);
        groups.add(new Group(fault, first, tags, waiting, coordinator == null ? "none" : coordinator.key(),
            dumpState(fault)));
    }

    /** @return One violation per group, each with when its acks came, read from the complete histories. */
    List<Violation> violations(Collection<NodeHistory> histories, List<Fault> faults, long startedAt) {
        List<Violation> out = new ArrayList<>();

        for (Group g : groups)
            out.add(violation(g, histories, faults, startedAt));

        return out;
    }

    /** One group: when its acks came on the nodes that waited for them (not elsewhere, where they may have come before). */
    private Violation violation(Group g, Collection<NodeHistory> histories, List<Fault> faults, long startedAt) {
        Map<String, Long> firstAck = new HashMap<>();

        for (NodeHistory h : histories) {
            if (!g.waiting.contains(h.key))
                continue;

            for (NodeHistory.Line l : h.lines) {
                if (l.kind.equals("ACK") && l.time >= g.firstDelivered)
                    firstAck.merge(l.fields[1], l.time, Math::min);
            }
        }

        long released = 0;
        int never = 0;

        for (String t : g.tags) {
            Long a = firstAck.get(t);

            if (a == null)
                never++;
            else
                released = Math.max(released, a);
        }

        Fault before = null;

        for (Fault f : faults) {
            if (f.injectedAt <= released)
                before = f;
        }

        String tags = String.join(",", new ArrayList<>(g.tags).subList(0, Math.min(6, g.tags.size())))
            + (g.tags.size() > 6 ? ",..." : "");
        Violation v = new Violation(Violation.MESSAGES, "acks of " + g.tags.size() + " messages (" + tags
            + ") not delivered within " + ChaosRun.IN_FLIGHT_MS / 1000 + " s of their originals (first delivered at +"
            + secs(g.firstDelivered - startedAt) + " s) on " + g.waiting + "; coordinator " + g.coordinator
            + "; ZooKeeper state then: " + g.dump + "; " + (never == g.tags.size() ? "never delivered on them"
            : "the last came at +" + secs(released - startedAt) + " s, " + secs(released - g.firstDelivered)
            + " s after the first original" + (before == null ? "" : ", " + secs(released - before.injectedAt)
            + " s after fault " + before.index + " (" + before.kind + ' ' + before.target + ')')
            + (never > 0 ? "; " + never + " never" : "")));

        v.fault = g.fault;

        return v;
    }

    private String dumpState(int fault) {
        Path file = settings.runDir.resolve("state-after-fault-" + fault + ".ion");

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(settings.zkConnect, new RetryNTimes(3, 500))) {
            c.start();
            Files.write(file, new IonStateDump(c, settings.root).dump().getBytes(StandardCharsets.UTF_8));
            return file.getFileName().toString();
        }
        catch (Exception e) {
            return "not dumped (" + e + ')';
        }
    }

    private static String secs(long ms) {
        return String.format("%.1f", ms / 1000.0);
    }
}
