package io.zkion.discovery.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.ignite.lang.IgniteProductVersion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What one membership event costs a member's topology, against the cluster's size (issue 20): every member makes a
 * new version per event, so at 1,000 members a cost of O(N) per event is paid N times over by the cluster.
 * <ul>
 * <li>{@code departures}: 100 nodes leave a version without gaps one after the other, as when a tenth of 1,000 fail at
 * once (one version each, as Ignite gets them). Past 512 members they leave gaps only; below, a copy every 64.</li>
 * <li>{@code churn}: a node leaves and a new one joins, over and over, on one topology of N: the steady state, with
 * the copy that comes once the gaps reach an eighth of the slots. Each operation is a departure and a join, the new
 * node's construction included.</li>
 * <li>{@code joins}: 100 nodes join the newest version one after the other, as in a join storm.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TopologyBenchmark {
    private static final int EVENTS = 100;

    @Param({"200", "1000", "4000"})
    public int members;

    private Topology base;
    private List<UUID> leaving;
    private List<ZkIonClusterNode> joining;

    @Setup public void setup() {
        List<ZkIonClusterNode> nodes = new ArrayList<>();

        for (int i = 0; i < members; i++) {
            ZkIonClusterNode n = node();

            n.order(i + 1);
            nodes.add(n);
        }

        base = Topology.of(members, nodes, Collections.emptyMap());
        leaving = new ArrayList<>();

        // Spread over the topology, as failures are.
        for (int i = 0; i < EVENTS; i++)
            leaving.add(nodes.get(i * (members / EVENTS)).id());

        joining = new ArrayList<>();

        for (int i = 0; i < EVENTS; i++)
            joining.add(node());
    }

    @Benchmark @OperationsPerInvocation(EVENTS)
    public Topology departures() {
        Topology t = base;
        long ver = t.topVer();

        for (UUID id : leaving)
            t = t.without(++ver, id);

        return t;
    }

    /** The topology {@link #churn} goes on changing, from one invocation to the next. */
    private Topology churning;

    @Benchmark @OperationsPerInvocation(EVENTS)
    public Topology churn() {
        Topology t = churning == null ? base : churning;
        long ver = t.topVer();

        for (int i = 0; i < EVENTS; i++)
            t = t.without(++ver, t.nodes().get(0).id()).withJoined(++ver, node(), null);

        return churning = t;
    }

    @Benchmark @OperationsPerInvocation(EVENTS)
    public Topology joins(Newest newest) {
        Topology t = newest.top;
        long ver = t.topVer();

        for (ZkIonClusterNode n : joining)
            t = t.withJoined(++ver, n, null);

        return t;
    }

    /**
     * A version of its own for each invocation of {@link #joins}, whose arrays have grown once already: joins append
     * to what versions share, and the arrays double when full, O(1) a join over a storm; here each invocation would
     * otherwise pay one doubling of N for 100 joins. Its own state, so that {@link #departures} does not pay for it.
     */
    @State(Scope.Thread)
    public static class Newest {
        Topology top;

        @Setup(Level.Invocation) public void fresh(TopologyBenchmark b) {
            Topology t = Topology.of(b.base.topVer(), new ArrayList<>(b.base.members()), Collections.emptyMap());

            top = t.withJoined(t.topVer() + 1, node(), null);
        }
    }

    private static ZkIonClusterNode node() {
        return new ZkIonClusterNode(UUID.randomUUID(), null, IgniteProductVersion.fromString("2.17.0"),
            Collections.emptyMap(), Collections.singleton("127.0.0.1"), Collections.singleton("localhost"), false);
    }
}
