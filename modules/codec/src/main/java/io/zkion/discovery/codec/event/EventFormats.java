package io.zkion.discovery.codec.event;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.UnsupportedFormatException;

/**
 * The formats one node reads and writes. Decoding looks at the payload's first bytes to find its format,
 * so a node reading a mixed log during a rolling change needs no other hint.
 */
public final class EventFormats {
    /** First byte of a zlib stream at the default window size: what {@link FormatId#JDK_ZLIB} starts with. */
    private static final int ZLIB_CMF = 0x78;

    private final Map<FormatId, EventFormat> formats = new EnumMap<>(FormatId.class);

    public EventFormats(Collection<EventFormat> readable) {
        for (EventFormat f : readable)
            formats.put(f.id(), f);

        if (formats.isEmpty())
            throw new IllegalArgumentException("A node must read at least one format");
    }

    /** @return The ids this node reads, to advertise. */
    public java.util.Set<FormatId> readable() {
        return java.util.Collections.unmodifiableSet(formats.keySet());
    }

    /** @return The format this node would write if it alone chose: the most preferred it reads. */
    public FormatId preferred() {
        FormatId best = null;

        for (FormatId f : formats.keySet()) {
            if (best == null || f.preference() > best.preference())
                best = f;
        }

        return best;
    }

    /** @return The wire names of the formats this node reads, as nodes advertise them. */
    public java.util.List<String> wireNames() {
        java.util.List<String> names = new java.util.ArrayList<>();

        for (FormatId f : formats.keySet())
            names.add(f.wireName());

        return names;
    }

    /** @throws UnsupportedFormatException If this node does not read {@code id}. */
    public EventFormat get(FormatId id) {
        EventFormat f = formats.get(id);

        if (f == null)
            throw new UnsupportedFormatException("This node does not read format " + id.wireName() + "; it reads " + names());

        return f;
    }

    /** @return The format {@code data} is in, judged by its first bytes. */
    public static FormatId detect(byte[] data, String what) {
        if (data == null || data.length == 0)
            throw new CorruptPayloadException(what + " is empty");

        if (data.length >= 2 && data[0] == 'Z' && data[1] == 'K') {
            int version = data.length > 2 ? data[2] & 0xFF : -1;

            if (version == 1)
                return FormatId.ION_1;

            if (version == 2)
                return FormatId.ION_2;

            throw new UnsupportedFormatException(what + " is in ZkIon Ion format version " + version
                + ", which this node does not know (it reads up to version 2): upgrade this node");
        }

        if ((data[0] & 0xFF) == ZLIB_CMF)
            return FormatId.JDK_ZLIB;

        throw new CorruptPayloadException(what + " is in no known format: it starts with 0x"
            + String.format("%02X", data[0] & 0xFF) + ", neither the ZkIon magic 'ZK' nor a zlib header");
    }

    /** Decodes a batch in whichever readable format it is in. */
    public EventBatch decode(byte[] data, String what) {
        return get(detect(data, what)).decode(data, what);
    }

    private String names() {
        StringBuilder sb = new StringBuilder();

        for (FormatId id : formats.keySet())
            sb.append(sb.length() == 0 ? "" : ", ").append(id.wireName());

        return sb.toString();
    }
}
