package io.zkion.discovery.engine;

import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** For tests outside the package: which server a client watches first. */
public final class ElderWatchOrder {
    private ElderWatchOrder() {
    }

    /** @param idOf Each server's node id. */
    public static <T> T first(UUID client, List<T> servers, Function<T, UUID> idOf) {
        return ElderWatch.clientOrder(client, servers, idOf).get(0);
    }
}
