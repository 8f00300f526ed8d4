package io.zkion.discovery.log;

/**
 * Event ids are absolute: {@code (entry sequence + 1) * PER_ENTRY + index in the entry}. Every node derives the
 * same ids from the log's order, without a counter, whoever wrote an entry. An entry holds fewer events than
 * {@link #PER_ENTRY}.
 */
public final class EventIds {
    public static final long PER_ENTRY = 1024;

    private EventIds() {
    }

    public static long absolute(long seq, long indexInEntry) {
        return (seq + 1) * PER_ENTRY + indexInEntry;
    }
}
