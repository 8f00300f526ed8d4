package io.zkion.discovery.chaos;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.ignite.internal.processors.cache.transactions.IgniteInternalTx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/**
 * Which transactions the run takes for Ignite's orphans: a primary's (dht and local), old enough, answering to a node
 * that left.
 */
public class OrphanedTransactionsTest {
    private static final long NOW = 1_000_000;
    private final UUID gone = UUID.randomUUID();
    private final UUID here = UUID.randomUUID();
    private final Set<UUID> topology = Set.of(here);

    @Test
    public void takesAnOldTransactionOfANodeThatLeft() {
        IgniteInternalTx orphan = tx(NOW - OrphanedTransactions.MIN_AGE_MS, true, gone);

        assertEquals(Map.of(orphan, gone), OrphanedTransactions.select(List.of(orphan), topology::contains, NOW));
    }

    /** Ignite recovers a failed node's transactions in seconds: a young one is left to it. */
    @Test
    public void leavesAYoungTransactionOfANodeThatLeft() {
        IgniteInternalTx young = tx(NOW - OrphanedTransactions.MIN_AGE_MS + 1, true, gone);

        assertEquals(Map.of(), OrphanedTransactions.select(List.of(young), topology::contains, NOW));
    }

    /** A long transaction of live nodes is the application's, however old. */
    @Test
    public void leavesAnOldTransactionOfLiveNodes() {
        IgniteInternalTx live = tx(0, true, here);

        assertEquals(Map.of(), OrphanedTransactions.select(List.of(live), topology::contains, NOW));
    }

    /**
     * A backup's copy answers to the client and its primary: taken, it would be counted twice, and rolled back where
     * Ignite leaves it to the primary.
     */
    @Test
    public void leavesABackupsCopy() {
        IgniteInternalTx backup = tx(0, false, gone, here);

        assertEquals(Map.of(), OrphanedTransactions.select(List.of(backup), topology::contains, NOW));
    }

    /**
     * @return A primary's or a backup's transaction, started at {@code start}, answering to {@code masters}; nothing
     *      else of it is read.
     */
    private static IgniteInternalTx tx(long start, boolean primary, UUID... masters) {
        return (IgniteInternalTx)Proxy.newProxyInstance(IgniteInternalTx.class.getClassLoader(),
            new Class<?>[] {IgniteInternalTx.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "startTime": return start;
                    case "masterNodeIds": return List.of(masters);
                    case "dht": return true;
                    case "local": return primary;
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    case "toString": return "tx@" + start;
                    default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }
}
