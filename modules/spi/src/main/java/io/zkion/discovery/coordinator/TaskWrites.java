package io.zkion.discovery.coordinator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.internal.InternalMessage;
import io.zkion.discovery.member.Predecoded;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;

/** A coordinator task's writes: entries through the fenced writer, the state following their topology versions. */
final class TaskWrites implements CoordinatorTask.TaskLog {
    private final FencedLogWriter writer;
    private final FormatChoice format;
    private final Departures departures;

    /** alive/ as the coordinator's step reconciled it, not its cache: the format of a verdict must suit every node. */
    private Map<UUID, ChildData> aliveNow = new HashMap<>();

    TaskWrites(FencedLogWriter writer, FormatChoice format, Departures departures) {
        this.writer = writer;
        this.format = format;
        this.departures = departures;
    }

    void seen(Map<UUID, ChildData> aliveNow) {
        this.aliveNow = aliveNow;
    }

    @Override public long topVer() {
        return writer.state().topVer;
    }

    @Override public void append(List<DiscoveryEvent> events, List<CuratorOp> ops, Map<Long, InternalMessage> own)
        throws Exception {
        long topVer = writer.state().topVer;

        for (DiscoveryEvent e : events)
            topVer = Math.max(topVer, e.topVer());

        Map<Long, Predecoded> pre = new HashMap<>();

        own.forEach((i, msg) -> pre.put(i, new Predecoded(msg, false, false)));

        writer.append(events, ops, topVer == writer.state().topVer ? writer.next()
            : writer.next(topVer, format.current(aliveNow, departures.leaving())), pre);
    }
}
