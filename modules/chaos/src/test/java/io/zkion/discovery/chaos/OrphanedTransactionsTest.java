package io.zkion.discovery.chaos;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.ignite.internal.processors.cache.transactions.IgniteInternalTx;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** Which transactions the run takes for Ignite's orphans: old enough, and answering to a node that left. */
public class OrphanedTransactionsTest {
    private static final long NOW = 1_000_000;
    private final UUID gone = UUID.randomUUID();
    private final UUID here = UUID.randomUUID();
    private final Set<UUID> topology = Set.of(here);

    @Test
    public void takesAnOldTransactionOfANodeThatLeft() {
        IgniteInternalTx orphan = tx(NOW - OrphanedTransactions.MIN_AGE_MS, here, gone);

        assertEquals(Map.of(orphan, gone), OrphanedTransactions.select(List.of(orphan), topology::contains, NOW));
    }

    /** Ignite recovers a failed node's transactions in seconds: a young one is left to it. */
    @Test
    public void leavesAYoungTransactionOfANodeThatLeft() {
        IgniteInternalTx young = tx(NOW - OrphanedTransactions.MIN_AGE_MS + 1, gone);

        assertEquals(Map.of(), OrphanedTransactions.select(List.of(young), topology::contains, NOW));
    }

    /** A long transaction of live nodes is the application's, however old. */
    @Test
    public void leavesAnOldTransactionOfLiveNodes() {
        IgniteInternalTx live = tx(0, here);

        assertEquals(Map.of(), OrphanedTransactions.select(List.of(live), topology::contains, NOW));
    }

    /** @return A transaction that started at {@code start} and answers to {@code masters}; nothing else of it is read. */
    private static IgniteInternalTx tx(long start, UUID... masters) {
        return (IgniteInternalTx)Proxy.newProxyInstance(IgniteInternalTx.class.getClassLoader(),
            new Class<?>[] {IgniteInternalTx.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "startTime": return start;
                    case "masterNodeIds": return List.of(masters);
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    case "toString": return "tx@" + start;
                    default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }
}
