package io.zkion.discovery.bench.sidebyside;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import org.apache.ignite.cache.CacheKeyConfiguration;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.configuration.CacheConfiguration;

/**
 * Scenario 7's configuration: many caches, each declaring affinity keys for many value types, as large
 * deployments do. Ignite carries every cache configuration in its join data, both ways. (No SQL schemas: those
 * need the indexing module, which these benchmarks leave out.)
 */
final class LargeCaches {
    private static final int KEY_TYPES = 60;
    private static final int PARTITIONS = 16;

    private LargeCaches() {
    }

    static CacheConfiguration<?, ?>[] configs(int count) {
        CacheConfiguration<?, ?>[] out = new CacheConfiguration<?, ?>[count];

        for (int i = 0; i < count; i++) {
            CacheKeyConfiguration[] keys = new CacheKeyConfiguration[KEY_TYPES];

            for (int k = 0; k < KEY_TYPES; k++) {
                keys[k] = new CacheKeyConfiguration("io.zkion.bench.model.region" + i + ".CustomerAccountRecordKeyType" + k,
                    "customerAccountAffinityAttribute" + k);
            }

            // Few partitions: 200 caches of 1,024 partitions each would not fit the benchmark's small data region.
            out[i] = new CacheConfiguration<>("large-cache-" + i).setBackups(1).setKeyConfiguration(keys)
                .setAffinity(new RendezvousAffinityFunction(false, PARTITIONS));
        }

        return out;
    }

    /** @return The configurations' size under Java serialization: a rough size of what the join data carries. */
    static int serializedSize(int count) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(configs(count));
        }

        return bytes.size();
    }
}
