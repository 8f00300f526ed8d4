package io.zkion.discovery.codec.zip;

/**
 * Per-thread working memory of {@link StreamingZip}. Claimed for the length of one call; a nested
 * call on the same thread (a marshaller that zips inside {@code writeObject}) gets a fresh one.
 */
final class ZipScratch {
    /** Big enough that the marshaller's small writes reach the deflater in few calls. */
    static final int STAGE_SIZE = 8 * 1024;

    /** Output arrays larger than this are not kept after the call: one huge payload must not pin memory. */
    static final int MAX_RETAINED_OUTPUT = 2 * 1024 * 1024;

    private static final ThreadLocal<ZipScratch> LOCAL = ThreadLocal.withInitial(ZipScratch::new);

    final byte[] stage = new byte[STAGE_SIZE];
    final byte[] deflated = new byte[STAGE_SIZE];
    private ByteSink out = new ByteSink(STAGE_SIZE);
    private boolean claimed;

    static ZipScratch claim() {
        ZipScratch s = LOCAL.get();

        if (s.claimed)
            s = new ZipScratch();

        s.claimed = true;
        s.out.reset();

        return s;
    }

    ByteSink out() {
        return out;
    }

    void release() {
        if (out.capacity() > MAX_RETAINED_OUTPUT)
            out = new ByteSink(STAGE_SIZE);

        claimed = false;
    }
}
