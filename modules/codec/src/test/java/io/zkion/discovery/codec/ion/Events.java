package io.zkion.discovery.codec.ion;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;

/** Deterministic sample events for tests, fixtures and benchmarks. */
public final class Events {
    public static final UUID CLUSTER = UUID.fromString("5a4b494f-4e00-4000-8000-000000000001");

    private Events() {
    }

    public static UUID node(int i) {
        return new UUID(0x5a4b494f4e000000L + i, 0x8000000000000000L + i);
    }

    /** A run of events of every kind; {@code payloadSize} bytes of opaque data on those that carry any. */
    public static List<DiscoveryEvent> sample(long firstId, int count, int payloadSize, long seed) {
        Random rnd = new Random(seed);
        List<DiscoveryEvent> events = new ArrayList<>(count);
        long topVer = 1;

        for (int i = 0; i < count; i++) {
            long id = firstId + i;
            byte[] data = new byte[payloadSize];

            rnd.nextBytes(data);

            switch (i % 5) {
                case 0: events.add(DiscoveryEvent.joined(id, ++topVer, node(i), data)); break;
                case 1: events.add(DiscoveryEvent.custom(id, topVer, node(i - 1), data)); break;
                case 2: events.add(DiscoveryEvent.ack(id, topVer, node(i - 2), data)); break;
                case 3: events.add(DiscoveryEvent.left(id, ++topVer, node(i - 3))); break;
                default: events.add(DiscoveryEvent.failed(id, ++topVer, node(i - 4)));
            }
        }

        return events;
    }

    public static EventBatch batch(long firstId, int count, int payloadSize) {
        List<DiscoveryEvent> events = sample(firstId, count, payloadSize, firstId);
        long topVer = events.isEmpty() ? 1 : events.get(events.size() - 1).topVer();

        return new EventBatch(CLUSTER, topVer, firstId + count - 1, events);
    }
}
