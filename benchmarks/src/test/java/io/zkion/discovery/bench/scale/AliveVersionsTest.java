package io.zkion.discovery.bench.scale;

import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** Counting acks from two snapshots of the alive znodes' versions. */
public class AliveVersionsTest {
    @Test public void countsEachMembersWritesAndSkipsThoseNotInBoth() {
        Map<String, Integer> before = new HashMap<>();
        Map<String, Integer> after = new HashMap<>();

        before.put("a", 1);
        before.put("b", 4);
        before.put("c", 2);
        before.put("gone", 7);
        after.put("a", 3);
        after.put("b", 6);
        after.put("c", 5);
        after.put("joined", 1);

        Map<Integer, Integer> byWrites = new AliveVersions(after).writesSince(new AliveVersions(before));

        assertEquals(2, byWrites.size());
        assertEquals(Integer.valueOf(2), byWrites.get(2));
        assertEquals(Integer.valueOf(1), byWrites.get(3));
    }
}
