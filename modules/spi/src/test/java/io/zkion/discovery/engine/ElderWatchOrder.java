package io.zkion.discovery.engine;

import java.util.List;
import java.util.UUID;

/** For tests outside the package: which server a client watches first. */
public final class ElderWatchOrder {
    private ElderWatchOrder() {
    }

    /** @param servers Oldest first. */
    public static <T> T first(UUID client, List<T> servers) {
        return ElderWatch.clientOrder(client, servers).get(0);
    }
}
