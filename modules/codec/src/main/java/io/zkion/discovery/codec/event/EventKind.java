package io.zkion.discovery.codec.event;

/** What a discovery event says happened. The symbol is its name in the Ion format and must never change. */
public enum EventKind {
    NODE_JOINED("joined"),
    NODE_LEFT("left"),
    NODE_FAILED("failed"),
    CUSTOM("custom"),
    ACK("ack");

    private static final EventKind[] KINDS = values();

    private final String symbol;

    EventKind(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    public static EventKind ofSymbol(String symbol) {
        for (EventKind k : KINDS) { // Not values(): it copies its array at every call, once per event read.
            if (k.symbol.equals(symbol))
                return k;
        }

        return null;
    }
}
