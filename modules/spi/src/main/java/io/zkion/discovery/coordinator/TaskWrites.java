package io.zkion.discovery.coordinator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.internal.InternalMessage;
import io.zkion.discovery.member.Predecoded;
import org.apache.curator.framework.api.transaction.CuratorOp;

/** A coordinator task's writes: entries through the fenced writer, the state following their topology versions. */
final class TaskWrites implements CoordinatorTask.TaskLog {
    private final FencedLogWriter writer;
    private final FormatChoice format;
    private final AliveView alive;
    private final Departures departures;

    TaskWrites(FencedLogWriter writer, FormatChoice format, AliveView alive, Departures departures) {
        this.writer = writer;
        this.format = format;
        this.alive = alive;
        this.departures = departures;
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
            : writer.next(topVer, format.current(alive.aliveNodes(), departures.leaving())), pre);
    }
}
