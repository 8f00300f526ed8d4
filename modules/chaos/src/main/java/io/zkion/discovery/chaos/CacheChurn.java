package io.zkion.discovery.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Caches created and destroyed under the faults: before each fault a random server creates one, and another destroys
 * the one created two faults before. Once the cluster settled, each create and destroy must have returned, and every
 * running node must know exactly the caches created and not destroyed. One whose node a fault hit may or may not have
 * taken effect (its failure is {@link FailedCalls}'s to judge): that cache is left out of the comparison.
 */
final class CacheChurn {
    /** How long a create or destroy may take, the fault's recovery included. */
    private static final long ANSWER_MS = 60_000;
    /** Lists of every node's caches, 2 s apart, before a difference counts: a destroy reaches nodes one by one. */
    private static final int LISTINGS = 5;
    private static final String PREFIX = "churn-";

    private enum State { LIVE, GONE, UNSURE }

    /** A create or destroy given to a node, not yet answered. */
    private static final class Call {
        final String cache;
        final boolean create;
        final NodeProcess node;

        Call(String cache, boolean create, NodeProcess node) {
            this.cache = cache;
            this.create = create;
            this.node = node;
        }
    }

    private final Random rnd;
    private final Map<String, State> caches = new LinkedHashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private int listings;

    /** Creates and destroys done, as their nodes answered; for the report. */
    long created;
    long destroyed;

    CacheChurn(Random rnd) {
        this.rnd = rnd;
    }

    /** Gives the calls before fault {@code fault} to some of the running {@code servers}. */
    void before(int fault, List<NodeProcess> servers) {
        if (servers.isEmpty())
            return;

        String cache = PREFIX + fault;

        call(new Call(cache, true, servers.get(rnd.nextInt(servers.size()))));

        String old = PREFIX + (fault - 2);

        if (caches.containsKey(old) && caches.get(old) != State.GONE)
            call(new Call(old, false, servers.get(rnd.nextInt(servers.size()))));
    }

    private void call(Call c) {
        c.node.command((c.create ? "create-cache " : "destroy-cache ") + c.cache);
        calls.add(c);
        caches.put(c.cache, State.UNSURE);
    }

    /** @return What is wrong once the cluster settled: a call that never returned, a node that knows other caches. */
    List<Violation> check(Cluster cluster) throws IOException, InterruptedException {
        List<Violation> out = new ArrayList<>();

        for (Call c : calls)
            answered(c, out);

        calls.clear();

        List<String> differ = new ArrayList<>();

        for (int attempt = 1; attempt <= LISTINGS; attempt++) {
            differ = differences(cluster, out);

            if (differ.isEmpty())
                return out;

            Thread.sleep(2_000);
        }

        out.add(new Violation(Violation.CACHE, "caches differ from what was created and destroyed, after "
            + LISTINGS + " listings: " + differ));

        return out;
    }

    private void answered(Call c, List<Violation> out) throws IOException, InterruptedException {
        String op = c.create ? "create-cache" : "destroy-cache";
        String done = c.create ? "CREATED" : "DESTROYED";
        NodeHistory.Line l = c.node.awaitLine(line -> line.fields.length > 0
            && (line.kind.equals(done) && line.fields[0].equals(c.cache)
            || line.kind.equals("CMDFAIL") && line.fields[0].equals(op + '_' + c.cache)), ANSWER_MS);

        if (l == null) {
            // Its node ended (a fault, or a violation judged elsewhere): the call may or may not have taken effect.
            if (c.node.alive())
                out.add(new Violation(Violation.CALLS, c.node.key() + ' ' + op + ' ' + c.cache + " did not return "
                    + "within " + ANSWER_MS + " ms"));

            return;
        }

        if (l.kind.equals("CMDFAIL"))
            return; // UNSURE, and FailedCalls judges the failure.

        caches.put(c.cache, c.create ? State.LIVE : State.GONE);

        if (c.create)
            created++;
        else
            destroyed++;
    }

    /** @return The cache names of a node's {@code CACHES <seq> [a,b]} line. */
    static Set<String> listed(NodeHistory.Line caches) {
        return new HashSet<>(Arrays.asList(caches.fields[1].replaceAll("[\\[\\]]", "").split(",")));
    }

    /** @return Each running node's difference from the caches whose state is known. */
    private List<String> differences(Cluster cluster, List<Violation> out) throws IOException, InterruptedException {
        String seq = "churn" + (++listings);
        List<String> differ = new ArrayList<>();

        for (NodeProcess n : cluster.running())
            n.command("caches " + seq);

        for (NodeProcess n : cluster.running()) {
            NodeHistory.Line l = n.awaitAnswer("CACHES", seq, ANSWER_MS);

            if (l == null) {
                if (n.alive())
                    out.add(new Violation(Violation.CALLS, n.key() + " did not list its caches in " + ANSWER_MS + " ms"));

                continue;
            }

            Set<String> known = listed(l);
            Set<String> wrong = new TreeSet<>();

            for (Map.Entry<String, State> c : caches.entrySet()) {
                if (c.getValue() == State.LIVE && !known.contains(c.getKey()))
                    wrong.add("lacks " + c.getKey());
                else if (c.getValue() == State.GONE && known.contains(c.getKey()))
                    wrong.add("still has " + c.getKey());
            }

            if (!wrong.isEmpty())
                differ.add(n.key() + ' ' + wrong);
        }

        return differ;
    }
}
