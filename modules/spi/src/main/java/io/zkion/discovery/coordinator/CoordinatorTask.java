package io.zkion.discovery.coordinator;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.internal.InternalMessage;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;

/**
 * Work of another room that runs in the coordinator's step and writes through its fenced log writer: a
 * communication-failure round. Started at each takeover, closed when the role ends.
 */
public interface CoordinatorTask extends AutoCloseable {
    /** Makes the task of a new coordinator, which writes through {@code log}. */
    interface Factory {
        CoordinatorTask start(TaskLog log) throws Exception;
    }

    /** The coordinator's fenced writes, as a task may make them. */
    interface TaskLog {
        /** @return The topology version of the cluster state, which the next entry follows. */
        long topVer();

        /**
         * Appends one entry of {@code events} with {@code ops}, in the same multi. The events number themselves from
         * 0 in the entry and carry their topology versions; each of {@code own} is an internal message this node
         * made, at the event with that index.
         */
        void append(List<DiscoveryEvent> events, List<CuratorOp> ops, Map<Long, InternalMessage> own) throws Exception;
    }

    /** @return Whether joins wait: they do while a round runs. */
    boolean holdsJoins();

    /** @param aliveNow The ids under alive/ as this step reconciled them. */
    void step(Map<UUID, ChildData> aliveNow) throws Exception;

    /** Has the next step look at ZooKeeper afresh (the coordinator's tick). */
    void markDirty();

    @Override void close();
}
