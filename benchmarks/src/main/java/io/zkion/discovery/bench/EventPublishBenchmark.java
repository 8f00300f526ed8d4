package io.zkion.discovery.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.codec.LegacyZip;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.event.EventBatch;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.ion.CopyStats;
import io.zkion.discovery.codec.ion.Events;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.ion.IonWindowRewriter;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.ignite.marshaller.Marshaller;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of publishing one more event while {@code pending} events are still unacknowledged.
 * <ul>
 * <li>{@code stockWholeWindow}: the stock SPI's shape, JDK serialization and zlib of the whole window
 * (a TreeMap of every pending event), on every event.</li>
 * <li>{@code ionAppendOne}: ours, as the SPI publishes: the new event alone, Ion-encoded and deflated,
 * appended as its own log entry. History is never touched.</li>
 * <li>{@code ionWindowStreamCopy}: for reference, a whole-window rewrite in Ion with the kept events
 * byte-copied; cheaper than the stock shape, but still proportional to the window.</li>
 * </ul>
 * Every event carries 64 bytes of payload, about what a stock window entry holds (ids, a znode path).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EventPublishBenchmark {
    private static final int PAYLOAD = 64;

    @Param({"10", "100", "1000"})
    public int pending;

    private final Marshaller marsh = JdkMarshallers.create();
    private final IonEventFormat ion = new IonEventFormat(StreamingZip.defaults());
    private final IonWindowRewriter rewriter = new IonWindowRewriter(ion, new CopyStats());

    private TreeMap<Long, DiscoveryEvent> window;
    private DiscoveryEvent next;
    private byte[] ionWindow;
    private long lastId;

    @Setup public void setup() {
        List<DiscoveryEvent> events = Events.sample(1, pending, PAYLOAD, 42);

        window = new TreeMap<>();

        for (DiscoveryEvent e : events)
            window.put(e.eventId(), e);

        lastId = pending;
        next = Events.sample(lastId, 2, PAYLOAD, 43).get(1); // index 1 is a custom event, id lastId + 1
        ionWindow = ion.encode(new EventBatch(Events.CLUSTER, 99, lastId, events));
    }

    @Benchmark public byte[] stockWholeWindow() throws Exception {
        // Add the new event, serialise everything, drop it again so the window size stays at 'pending'.
        window.put(next.eventId(), next);

        try {
            return LegacyZip.marshalZip(marsh, window);
        }
        finally {
            window.remove(next.eventId());
        }
    }

    @Benchmark public byte[] ionAppendOne() {
        return ion.encode(new EventBatch(Events.CLUSTER, next.topVer(), next.eventId(), Collections.singletonList(next)));
    }

    @Benchmark public byte[] ionWindowStreamCopy() {
        // Drops nothing (acks are slow) and appends the new event: the window only grows.
        List<DiscoveryEvent> appended = new ArrayList<>(1);

        appended.add(next);

        return rewriter.rewrite(ionWindow, 0, next.topVer(), appended, "window");
    }
}
