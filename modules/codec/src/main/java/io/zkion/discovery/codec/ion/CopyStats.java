package io.zkion.discovery.codec.ion;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many values a re-emission byte-copied and how many ion-java had to decode and re-encode instead.
 * Stream copy falls back silently, so this count is the only evidence that it happened.
 */
public final class CopyStats {
    private final LongAdder copied = new LongAdder();
    private final LongAdder copiedBytes = new LongAdder();
    private final LongAdder reencoded = new LongAdder();

    void onCopied(long bytes) {
        copied.increment();
        copiedBytes.add(bytes);
    }

    void onReencoded() {
        reencoded.increment();
    }

    /** @return Values written as a byte copy. */
    public long copied() {
        return copied.sum();
    }

    /** @return Bytes written by byte copy. */
    public long copiedBytes() {
        return copiedBytes.sum();
    }

    /** @return Values that were decoded and re-encoded. */
    public long reencoded() {
        return reencoded.sum();
    }

    @Override public String toString() {
        return "CopyStats[copied=" + copied() + " (" + copiedBytes() + " B), reencoded=" + reencoded() + "]";
    }
}
