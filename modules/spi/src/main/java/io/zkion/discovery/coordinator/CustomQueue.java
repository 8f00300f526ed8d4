package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.internal.Notifier;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.Topology;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.member.Predecoded;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.discovery.DiscoverySpiCustomMessage;
import org.apache.zookeeper.KeeperException;

/**
 * Queued custom messages become log entries, in the order they were sent. Plain ones are batched; a mutable one is
 * delivered here first, with the gate closed, and logged on its own.
 */
final class CustomQueue implements AutoCloseable {
    /** Custom messages batched into one entry at most. */
    private static final int MAX_BATCH = 64;

    private final ZkStore store;
    private final ZkPaths paths;
    private final EventFormats formats;
    private final ObjectCodec objects;
    private final Member member;
    private final ZkIonClusterNode local;
    private final IgniteLogger log;
    private final Notifier notifier;
    private final FencedLogWriter writer;

    private final PersistentWatcher customWatch;

    /**
     * Set by the watch on custom/, and by the coordinator's tick: a step that failed after clearing it leaves requests
     * in the queue that no further write may announce. The queue is listed only then (and once at takeover), or while
     * {@link #deliveredUnlogged}.
     */
    private volatile boolean customDirty = true;

    /** The highest sequence number seen under custom/ since it was last created anew. */
    private long highestSeen = -1;

    /**
     * Set while a mutable message delivered here is not logged: a take that failed after the delivery leaves it set.
     * Ignite here has that message, so the coordinator's next step takes the queue again before it logs anything else
     * or opens the gate ({@link Coordinator}), whatever the queue's watch says; a take that ends clears it.
     */
    private boolean deliveredUnlogged;

    /** Starts the watch on custom/. */
    CustomQueue(CoordinatorContext ctx, FencedLogWriter writer, Notifier notifier) {
        Runnable trigger = ctx.trigger;

        this.store = ctx.store;
        this.paths = ctx.paths;
        this.formats = ctx.formats;
        this.objects = ctx.objects;
        this.member = ctx.member;
        this.local = ctx.local;
        this.log = ctx.log;
        this.notifier = notifier;
        this.writer = writer;

        // Set if this node delivered one in an earlier term as coordinator: it lost the role and took it back before
        // the commit that logs it was tried again.
        deliveredUnlogged = member.holdsUnloggedDeliveries();

        customWatch = new PersistentWatcher(store.client(), paths.custom, false);
        customWatch.getListenable().addListener(e -> {
            customDirty = true;
            trigger.run();
        });
        customWatch.start();
    }

    /** @return Whether a mutable message was delivered here and is not logged yet: joins wait for it. */
    boolean deliveredUnlogged() {
        return deliveredUnlogged;
    }

    /** Has the next step list the queue. */
    void markDirty() {
        customDirty = true;
    }

    /**
     * Logs what is queued, when its watch or the tick says so, when {@code mustList}, or while a message delivered here
     * is unlogged.
     *
     * @param mustList Whether to list the queue even if nothing new was heard: nodes stopping wait for it.
     * @param take Whether to log what is queued; false while the log drains for a rollover.
     * @param leaving The nodes stopping: their mutable messages are dropped (see {@link #customs}).
     * @return The senders of what is still queued after this step; null if the queue was not listed.
     */
    Set<UUID> step(boolean mustList, boolean take, Set<UUID> leaving) throws Exception {
        if (!customDirty && !mustList && !deliveredUnlogged)
            return null;

        customDirty = false; // Before listing: a request arriving meanwhile sets it again.

        // Ignite stops this node (it set the listener to null): a mutable message handed on now may never be processed
        // here, and its unprocessed copy would reach the others. The queue waits for the next coordinator.
        boolean taking = take && notifier.listening();
        Set<UUID> left = customs(taking, leaving, false);

        if (taking)
            deliveredUnlogged = false; // Logged or dropped with its request, or left to the next coordinator.

        if (!left.isEmpty())
            customDirty = true; // Listed again at each step, until it is taken.

        return left;
    }

    /**
     * Logs the mutable message delivered here whose commit failed, before anything else is logged: the head of the
     * queue, since the take that failed committed all before it. The rest waits for the step's usual order (a
     * stopping node's mutable messages are dropped there, say). Not while Ignite stops this node, as {@link #step}.
     */
    void takeDeliveredUnlogged() throws Exception {
        if (!notifier.listening())
            return;

        customs(true, Collections.emptySet(), true);

        deliveredUnlogged = false;
        customDirty = true; // What the failed take listed after it, its news taken then, is listed in this step.
    }

    /**
     * A stopping node's plain messages are logged before its NODE_LEFT. Its mutable ones are dropped, as with the stock
     * SPI and TcpDiscoverySpi: one still queued is a stopping coordinator's own (any other node waits until the
     * coordinator took its queue before it says it stops), and Ignite's exchange hangs when the next coordinator
     * processes a mutable message of its predecessor's, such as its affinity change (CoordinatorStopDuringExchangeTest).
     *
     * @param take Whether to log what is listed, or only learn whose it is.
     * @param leaving The nodes stopping.
     * @param deliveredOnly Whether to stop at the first request that is not a mutable message delivered here unlogged.
     * @return The senders of what is still queued.
     */
    private Set<UUID> customs(boolean take, Set<UUID> leaving, boolean deliveredOnly) throws Exception {
        List<String> names = new ArrayList<>(store.children(paths.custom));
        Set<UUID> left = new HashSet<>();

        names.sort(Comparator.comparingLong(ZkPaths::sequence));

        if (!names.isEmpty())
            highestSeen = Math.max(highestSeen, ZkPaths.sequence(names.get(names.size() - 1)));
        else if (take && highestSeen >= LogRollover.rollAt())
            renewQueue();

        List<DiscoveryEvent> batch = new ArrayList<>();
        List<CuratorOp> ops = new ArrayList<>();
        Map<Long, Predecoded> pre = new HashMap<>();
        long evtId = -1;

        for (String name : names) {
            String path = paths.custom + "/" + name;
            ZkStore.Payload p;

            try {
                p = store.readPayload(path);
            }
            catch (ZkDataException bad) {
                log.error("Dropping an unreadable custom message request: " + bad.getMessage());
                writer.commitFenced(Collections.singletonList(store.deleteOp(path)));
                continue;
            }

            if (p == null)
                continue;

            DiscoveryEvent req;
            DiscoverySpiCustomMessage msg;

            try {
                EventBatch b = formats.decode(p.data, path);

                req = b.events().get(0);
                msg = objects.unmarshal(req.data(), path);
            }
            catch (RuntimeException ex) {
                log.error("Dropping unreadable custom message request " + path + ": " + ex.getMessage(), ex);
                writer.commitFenced(store.deleteOps(path, p.manifest));
                continue;
            }

            ZkIonClusterNode sender = member.topology().node(req.nodeId());

            if (sender == null) {
                log.warning("Dropping custom message " + path + " from " + req.nodeId() + ", which is not in the topology");
                writer.commitFenced(store.deleteOps(path, p.manifest));
                continue;
            }

            if (!take) {
                left.add(req.nodeId());
                continue;
            }

            // Delivered here by an earlier try whose commit failed: logged now as delivered then.
            DiscoverySpiCustomMessage kept = msg.isMutable() ? member.deliveredUnlogged(msg) : null;

            if (deliveredOnly && kept == null)
                break;

            // Unless delivered here already (a commit failed): Ignite here has it, so it is logged as any other.
            if (msg.isMutable() && leaving.contains(req.nodeId()) && kept == null) {
                log.warning("Dropping mutable custom message " + path + " of " + req.nodeId() + ", which is stopping: only"
                    + " the coordinator it was sent to may process it first");
                writer.commitFenced(store.deleteOps(path, p.manifest));
                continue;
            }

            if (msg.isMutable()) {
                // Ignite expects the coordinator to see a mutable message first; flush what is batched before it.
                if (!batch.isEmpty()) {
                    appendCustoms(batch, ops, pre);
                    batch.clear();
                    ops.clear();
                    pre.clear();
                    evtId = -1;

                    // Read again: that flush may have applied a logged copy of it (a commit landed unconfirmed).
                    kept = member.deliveredUnlogged(msg);
                }

                // Delivered here before it is logged: a second copy of a send must be caught before, not by members.
                if (kept == null && member.deliveredAlready(msg)) {
                    log.warning("Dropping " + path + ": its message was delivered already (a send replayed after a"
                        + " lost connection is written twice)");
                    writer.commitFenced(store.deleteOps(path, p.manifest));
                    continue;
                }

                // Ignite began to stop this node meanwhile: the rest waits for the next coordinator.
                if (!mutable(path, p, req, sender, kept != null ? kept : msg, kept != null)) {
                    take = false;
                    left.add(req.nodeId());
                }

                if (deliveredOnly)
                    break;

                continue;
            }

            batch.add(DiscoveryEvent.custom(++evtId, writer.state().topVer, req.nodeId(), req.data()));
            ops.addAll(store.deleteOps(path, p.manifest));
            pre.put(evtId, new Predecoded(msg, false, false));

            if (batch.size() >= MAX_BATCH) {
                appendCustoms(batch, ops, pre);
                batch.clear();
                ops.clear();
                pre.clear();
                evtId = -1;
            }
        }

        if (!batch.isEmpty())
            appendCustoms(batch, ops, pre);

        return left;
    }

    /**
     * Creates custom/ anew while it is empty, so that ZooKeeper's counter under it starts from zero, as the log's
     * rollover does for the log. Members write here at any time: one that does meanwhile fails the delete, and the
     * next empty listing tries again. The order of the queue needs nothing more: it is empty.
     */
    private void renewQueue() throws Exception {
        try {
            writer.commitFenced(Arrays.asList(store.deleteOp(paths.custom),
                store.client().transactionOp().create().forPath(paths.custom)));

            log.info("Created the custom message queue " + paths.custom + " anew: its sequence was at " + highestSeen);
            highestSeen = -1;
        }
        catch (KeeperException.NotEmptyException busy) {
            customDirty = true; // A request came meanwhile: it is listed next.
        }
    }

    private void appendCustoms(List<DiscoveryEvent> batch, List<CuratorOp> ops, Map<Long, Predecoded> pre)
        throws Exception {
        writer.append(new ArrayList<>(batch), new ArrayList<>(ops), writer.next(), new HashMap<>(pre));
    }

    /**
     * @param deliveredHere Whether an earlier try delivered {@code msg} here already, its commit failing then.
     * @return Whether it was logged; false if Ignite began to stop this node meanwhile.
     */
    private boolean mutable(String path, ZkStore.Payload p, DiscoveryEvent req, ZkIonClusterNode sender,
        DiscoverySpiCustomMessage msg, boolean deliveredHere) throws Exception {
        // Delivered here before it is logged: nothing may land in the log meanwhile, or this node's order differs.
        writer.closeGate();

        Topology top = member.topology();

        // Set for a message delivered by an earlier try too: this coordinator may be a new one, its queue started
        // clear.
        deliveredUnlogged = true;

        // Delivered here first and waited for: the listener may mutate it, or stop it from going further.
        if (!deliveredHere) {
            notifier.custom(top.topVer(), sender, top.nodes(), msg);

            // Ignite began to stop this node while it was handed on: its listener may never have run. Logged, the
            // others would get a message the coordinator never processed (see the loop): left to the next one.
            if (!notifier.listening())
                return false;

            member.deliveredBeforeLogging(msg);
        }

        logMutable(path, p, req, msg);
        member.logged(msg);

        return true;
    }

    private void logMutable(String path, ZkStore.Payload p, DiscoveryEvent req, DiscoverySpiCustomMessage msg)
        throws Exception {
        List<CuratorOp> ops = new ArrayList<>(store.deleteOps(path, p.manifest));
        long evtId = 0;
        Map<Long, Predecoded> pre = new HashMap<>();

        if (msg.stopProcess()) {
            DiscoverySpiCustomMessage ack = msg.ackMessage();

            if (ack == null) {
                writer.commitFenced(ops);
                return;
            }

            pre.put(evtId, new Predecoded(ack, false, false));
            writer.append(Collections.singletonList(DiscoveryEvent.ack(evtId, writer.state().topVer, local.id(),
                objects.marshal(ack))), ops, writer.next(), pre);

            return;
        }

        // Others get the sender's original bytes, as with the stock SPI: mutations stay on the coordinator.
        pre.put(evtId, new Predecoded(msg, true, false));
        writer.append(Collections.singletonList(DiscoveryEvent.custom(evtId, writer.state().topVer, req.nodeId(),
            req.data())), ops, writer.next(), pre);
    }

    @Override public void close() {
        try {
            customWatch.close();
        }
        catch (Exception ignored) {
            // Closing anyway.
        }
    }
}
