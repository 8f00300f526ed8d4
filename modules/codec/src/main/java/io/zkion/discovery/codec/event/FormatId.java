package io.zkion.discovery.codec.event;

/**
 * The formats event data can be written in. Nodes advertise the ids they read; the coordinator writes the
 * best one every alive node reads. The names are part of the protocol and never change.
 */
public enum FormatId {
    /** JDK serialization through Ignite's marshaller, zlib-compressed: the shape the stock SPI writes. */
    JDK_ZLIB("jdk-zlib", 0),

    /** Ion binary, version 1 of our schema, in a zlib stream behind a 4-byte header. */
    ION_1("ion-1", 1),

    /**
     * Ion as version 1, but a node's marshalled self and joining data are written once, by the joiner, to its
     * data znode: join events and topology snapshots name that znode instead of carrying a copy.
     */
    ION_2("ion-2", 2);

    private final String name;
    private final int preference;

    FormatId(String name, int preference) {
        this.name = name;
        this.preference = preference;
    }

    /** @return The wire name, as advertised by nodes. */
    public String wireName() {
        return name;
    }

    /** @return Higher is preferred when every node reads it. */
    public int preference() {
        return preference;
    }

    /** @return The format with this wire name, or {@code null} if this node does not know it. */
    public static FormatId ofWireName(String name) {
        for (FormatId f : values()) {
            if (f.name.equals(name))
                return f;
        }

        return null;
    }
}
