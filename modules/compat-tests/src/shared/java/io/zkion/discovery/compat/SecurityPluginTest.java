package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.configuration.CacheConfiguration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.failure.AbstractFailureHandler;
import org.apache.ignite.failure.FailureContext;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.processors.security.impl.TestSecurityPluginProvider;
import org.apache.ignite.plugin.security.SecurityPermissionSetBuilder;
import org.apache.ignite.testframework.junits.common.GridCommonAbstractTest;
import org.junit.Test;

/**
 * With a real security plugin (Ignite's test plugin: it authenticates every node and checks every operation), nodes
 * join on ZkIon, and custom messages from servers and from a client (cache creates) reach Ignite with a security
 * subject it trusts: a message without one stops Ignite's discovery-notifier thread ("Security context isn't
 * certain"), and every later cache create then hangs.
 */
public class SecurityPluginTest extends GridCommonAbstractTest {
    /** Critical failures on any node: a notifier thread that died on a security context among them. */
    private final List<String> failures = new CopyOnWriteArrayList<>();

    @Override protected IgniteConfiguration getConfiguration(String name) throws Exception {
        return super.getConfiguration(name).setPluginProviders(new TestSecurityPluginProvider(name, "",
            SecurityPermissionSetBuilder.ALL_PERMISSIONS, false))
            .setFailureHandler(new AbstractFailureHandler() {
                @Override protected boolean handle(Ignite ignite, FailureContext ctx) {
                    failures.add(ignite.name() + ": " + ctx);

                    return false;
                }
            });
    }

    @Test public void cacheCreatesFromServersAndClientsCarryTheirSubject() throws Exception {
        startGrids(2);

        Ignite client = startClientGrid(2);

        for (Ignite n : new Ignite[] {grid(0), grid(1), client}) {
            assertTrue(n.configuration().getDiscoverySpi() instanceof ZkIonDiscoverySpi);
            assertTrue(n.name(), ((IgniteEx)n).context().security().enabled());
            assertEquals(n.name(), 3, n.cluster().nodes().size());
        }

        for (Ignite from : new Ignite[] {grid(1), client, grid(0)}) {
            IgniteCache<Integer, String> c = from.getOrCreateCache(new CacheConfiguration<>("secured-" + from.name()));

            c.put(1, from.name());

            for (Ignite n : new Ignite[] {grid(0), grid(1), client})
                assertEquals(from.name(), n.cache("secured-" + from.name()).get(1));
        }

        // A node that joins after them sees them all, and can create one of its own.
        Ignite late = startGrid(3);

        assertEquals(4, late.cluster().nodes().size());
        late.getOrCreateCache("secured-late").put(1, "late");
        assertEquals("late", client.cache("secured-late").get(1));

        // The first node leaves: the others handle its NODE_LEFT in its security context, then go on.
        stopGrid(0);
        grid(1).getOrCreateCache("secured-after-leave").put(1, "after");
        assertEquals("after", client.cache("secured-after-leave").get(1));

        assertTrue("no critical failure: " + failures, failures.isEmpty());
    }

    @Override protected long getTestTimeout() {
        return 120_000;
    }

    @Override protected void afterTest() throws Exception {
        stopAllGrids();
    }
}
