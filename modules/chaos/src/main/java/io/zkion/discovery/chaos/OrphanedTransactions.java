package io.zkion.discovery.chaos;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.processors.cache.transactions.IgniteInternalTx;
import org.apache.ignite.mxbean.TransactionsMXBean;

/**
 * Ignite 2.17's orphaned transaction, found and rolled back on one server (docs/operations.md, "Transactions of a
 * failed client"): a client's transaction that reached this server while an exchange ran, and was prepared after
 * every server had failed the client and recovered its transactions. Nothing ends it, and every later exchange waits
 * for it. The rollback goes through Ignite's {@link TransactionsMXBean}, over JMX, as an operator's would.
 */
final class OrphanedTransactions {
    /**
     * How old a transaction of a node that left must be to be taken for an orphan: Ignite recovers a failed node's
     * transactions in seconds.
     */
    static final long MIN_AGE_MS = 30_000;

    private static final long CANCEL_MS = 20_000;

    private OrphanedTransactions() {
    }

    /**
     * @return One line for each orphan this server held, {@code xid:state:origin=<node>:<age>ms:<how>}, each rolled back
     *      (how: {@code mxbean}, {@code local}, or {@code not-ended} if neither ended it).
     */
    static List<String> rollBack(IgniteEx ignite) throws Exception {
        // Looked up on every call, orphans or not: a run that meets none still shows the way to one works.
        TransactionsMXBean bean = mxBean(ignite);
        List<String> found = new ArrayList<>();

        for (Map.Entry<IgniteInternalTx, UUID> e : select(ignite.context().cache().context().tm().activeTransactions(),
            id -> ignite.cluster().node(id) != null, System.currentTimeMillis()).entrySet()) {
            IgniteInternalTx tx = e.getKey();

            String how = cancel(bean, tx);

            found.add(tx.xid() + ":" + tx.state() + ":origin=" + e.getValue() + ':'
                + (System.currentTimeMillis() - tx.startTime()) + "ms:" + how);
        }

        return found;
    }

    /**
     * @return The transactions this server began as primary for another node (Ignite's GridDhtTxLocal: dht and local),
     *      at least {@link #MIN_AGE_MS} old, whose node is no longer in the topology, each with that node. A backup's
     *      copy is not taken: it answers to its primary too, and the primary's rollback ends it.
     */
    static Map<IgniteInternalTx, UUID> select(Collection<IgniteInternalTx> active, Predicate<UUID> inTopology, long now) {
        Map<IgniteInternalTx, UUID> out = new LinkedHashMap<>();

        for (IgniteInternalTx tx : active) {
            if (!tx.dht() || !tx.local() || now - tx.startTime() < MIN_AGE_MS)
                continue;

            for (UUID id : tx.masterNodeIds()) {
                if (!inTopology.test(id)) {
                    out.put(tx, id);
                    break;
                }
            }
        }

        return out;
    }

    /**
     * Cancels through the MXBean, whose task runs on every node, and waits for the transaction to end; if the bean's
     * call failed or did not return in {@link #CANCEL_MS} (a node that does not answer), or the transaction did not end
     * within {@link #CANCEL_MS} after it, rolls it back here, as the bean's task would on this node. @return how.
     */
    private static String cancel(TransactionsMXBean bean, IgniteInternalTx tx) throws Exception {
        CompletableFuture<Void> viaBean = CompletableFuture.runAsync(() -> bean.cancel(tx.xid().toString()));

        try {
            viaBean.get(CANCEL_MS, TimeUnit.MILLISECONDS);

            if (ended(tx))
                return "mxbean";
        }
        catch (TimeoutException | ExecutionException e) {
            // Below: the rollback here.
        }

        tx.rollbackAsync();

        return ended(tx) ? "local" : "not-ended";
    }

    private static boolean ended(IgniteInternalTx tx) throws InterruptedException {
        try {
            tx.finishFuture().get(CANCEL_MS);
        }
        catch (IgniteCheckedException e) {
            // Timed out, or the finish failed: the state says which.
        }

        return tx.done();
    }

    /** @return This node's TransactionsMXBean, as JMX serves it. */
    private static TransactionsMXBean mxBean(IgniteEx ignite) throws Exception {
        MBeanServer server = ignite.configuration().getMBeanServer() != null ? ignite.configuration().getMBeanServer()
            : ManagementFactory.getPlatformMBeanServer();

        for (ObjectName n : server.queryNames(new ObjectName("org.apache:group=Transactions,*"), null)) {
            if (ignite.name().equals(unquoted(n.getKeyProperty("igniteInstanceName"))))
                return JMX.newMXBeanProxy(server, n, TransactionsMXBean.class);
        }

        throw new IllegalStateException("No TransactionsMXBean registered for node " + ignite.name());
    }

    /** @return A key property's value as given, or unquoted if JMX quoted it (a name with special characters). */
    private static String unquoted(String v) {
        return v != null && v.startsWith("\"") ? ObjectName.unquote(v) : v;
    }
}
