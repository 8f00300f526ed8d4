package io.zkion.discovery.coordinator;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.msg.AliveInfo;
import org.apache.curator.framework.recipes.cache.ChildData;

/** Picks the format the coordinator writes the log in, from the formats the alive nodes say they read. */
final class FormatChoice {
    private final EventFormats formats;
    private final AliveView alive;
    private final FencedLogWriter writer;

    FormatChoice(EventFormats formats, AliveView alive, FencedLogWriter writer) {
        this.formats = formats;
        this.alive = alive;
        this.writer = writer;
    }

    /** The best format every alive node reads, but those leaving; the current one if they share none. */
    String current(Map<UUID, ChildData> aliveNow, Set<UUID> leaving) {
        Set<String> common = null;

        for (Map.Entry<UUID, ChildData> e : aliveNow.entrySet()) {
            if (leaving.contains(e.getKey()))
                continue;

            AliveInfo a = alive.info(e.getValue());

            if (a == null)
                continue;

            if (common == null)
                common = new HashSet<>(a.formats);
            else
                common.retainAll(a.formats);
        }

        FormatId best = null;

        for (FormatId f : formats.readable()) {
            if ((common == null || common.contains(f.wireName())) && (best == null || f.preference() > best.preference()))
                best = f;
        }

        return best == null ? writer.state().format : best.wireName();
    }
}
