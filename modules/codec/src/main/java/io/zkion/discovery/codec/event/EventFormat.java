package io.zkion.discovery.codec.event;

/** Encodes and decodes batches of events in one format. Implementations are thread-safe. */
public interface EventFormat {
    FormatId id();

    byte[] encode(EventBatch batch);

    /**
     * @param what What the bytes are (a znode path, say), named in every error.
     * @throws io.zkion.discovery.codec.CodecException If the bytes are not a valid batch in this format.
     */
    EventBatch decode(byte[] data, String what);
}
