package io.zkion.discovery.coordinator;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.curator.framework.recipes.cache.ChildData;

/**
 * Which alive znode, by its creation zxid, each member holds: one znode per ZooKeeper session. A joiner whose session
 * ended writes its alive znode again in a new one, and between two steps the coordinator may see only that the id is
 * still there. A member whose znode is another than the one it was seen (or admitted) with lost its session: it failed.
 */
final class MemberSessions {
    private final Map<UUID, Long> czxids = new HashMap<>();

    /** Records the znode a join was admitted against, before any later step sees another. */
    void admitted(UUID id, ChildData alive) {
        long czxid = AliveView.czxid(alive);

        if (czxid >= 0)
            czxids.put(id, czxid);
    }

    /**
     * @return Whether {@code id}'s alive znode is another than the one this coordinator first saw it with. The first
     *      sighting is recorded: a coordinator after a failover starts from what it sees.
     */
    boolean replaced(UUID id, ChildData alive) {
        long czxid = AliveView.czxid(alive);

        if (czxid < 0)
            return false; // No stat to tell by: as before, the id alone.

        Long first = czxids.putIfAbsent(id, czxid);

        return first != null && first != czxid;
    }

    /** Forgets the nodes no longer members. */
    void retain(Predicate<UUID> member) {
        czxids.keySet().removeIf(member.negate());
    }
}
