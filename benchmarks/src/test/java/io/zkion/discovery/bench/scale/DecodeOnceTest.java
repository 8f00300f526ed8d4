package io.zkion.discovery.bench.scale;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import io.zkion.discovery.internal.ZkIonClusterNode;
import org.apache.ignite.lang.IgniteProductVersion;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;

/**
 * Members of one JVM that share a decoding must not share what the SPI changes: each gets its own node, which the SPI
 * gives an order, while the attributes (read only) and joining data stay one copy.
 */
public class DecodeOnceTest {
    /** A decoder a reader must not need: the JVM decoded these bytes before. */
    private static Object never() {
        throw new AssertionError("Decoded again");
    }

    private static byte[] bytes(String s) {
        return (s + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
    }

    @Test public void eachReaderGetsItsOwnNodeWithEveryFieldOfTheDecodedOne() throws Exception {
        Map<String, Object> attrs = new HashMap<>();

        attrs.put("org.apache.ignite.build.ver", "2.17.0");

        UUID id = UUID.randomUUID();
        ZkIonClusterNode decoded = new ZkIonClusterNode(id, "consistent-1", IgniteProductVersion.fromString("2.17.0"),
            attrs, Arrays.asList("10.0.0.1"), Arrays.asList("host1"), true);
        byte[] b = bytes("node");

        decoded.order(7);

        ZkIonClusterNode first = (ZkIonClusterNode)DecodeOnce.decoded(b, () -> decoded);
        ZkIonClusterNode second = (ZkIonClusterNode)DecodeOnce.decoded(b.clone(), DecodeOnceTest::never);

        assertNotSame(decoded, first);
        assertNotSame(first, second);

        for (ZkIonClusterNode n : Arrays.asList(first, second)) {
            assertEquals(id, n.id());
            assertEquals("consistent-1", n.consistentId());
            assertEquals(decoded.version(), n.version());
            assertEquals(7, n.order());
            assertEquals("2.17.0", n.attribute("org.apache.ignite.build.ver"));
            assertSame(decoded.attributes(), n.attributes());
            assertEquals(decoded.addresses(), n.addresses());
            assertEquals(decoded.hostNames(), n.hostNames());
            assertEquals(true, n.isClient());
        }

        // One member's order is its own: the SPI sets it on the node it got.
        first.order(9);

        assertEquals(7, second.order());
        assertEquals(7, ((ZkIonClusterNode)DecodeOnce.decoded(b, DecodeOnceTest::never)).order());
    }

    @Test public void joiningDataIsSharedAndOtherObjectsAreNotKept() throws Exception {
        Map<Integer, byte[]> joinData = new HashMap<>();

        joinData.put(1, new byte[] {1, 2, 3});

        byte[] maps = bytes("map");
        byte[] other = bytes("message");

        assertSame(joinData, DecodeOnce.decoded(maps, () -> joinData));
        assertSame(joinData, DecodeOnce.decoded(maps.clone(), DecodeOnceTest::never));

        // A custom message is decoded by each member, as always.
        AtomicInteger decodes = new AtomicInteger();

        for (int i = 0; i < 2; i++) {
            assertEquals("a message", DecodeOnce.decoded(other, () -> {
                decodes.incrementAndGet();

                return "a message";
            }));
        }

        assertEquals(2, decodes.get());
    }
}
