package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import com.amazon.ion.IonCatalog;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonSystem;
import com.amazon.ion.IonWriter;
import com.amazon.ion.SymbolTable;
import com.amazon.ion.impl.bin._Private_IonManagedBinaryWriterBuilder;
import com.amazon.ion.impl.bin._Private_IonManagedBinaryWriterBuilder.AllocatorMode;
import com.amazon.ion.system.IonReaderBuilder;
import com.amazon.ion.system.IonSystemBuilder;
import com.amazon.ion.system.SimpleCatalog;

/**
 * The symbols of the ZkIon Ion format, as one shared symbol table, and the writer and reader builders
 * that use it.
 * <p>
 * Every field name and kind is in the shared table, so encoded values carry no local symbols. That is
 * what lets ion-java's stream copy byte-copy a value from one of our streams into another: it copies
 * only when the reader's symbols are a subset of the writer's, with the very same import objects.
 * <p>
 * The table is append-only: a symbol's id never changes, new symbols go to a new table version.
 */
public final class IonSchema {
    /** Name of the shared symbol table. */
    public static final String TABLE_NAME = "io.zkion.discovery";

    /** Version 1 of the table; never edit, only add a version 2 beside it. */
    private static final List<String> SYMBOLS_V1 = Arrays.asList(
        F.CLUSTER, F.TOP_VER, F.COUNTER, F.COUNT, F.FIRST,
        F.KIND, F.ID, F.NODE, F.DATA, F.ORDER, F.CLIENT,
        "joined", "left", "failed", "custom", "ack");

    /**
     * Version 2 adds the symbols of the control records (state, alive, join). Version 1 payloads import
     * version 1 and still resolve through the catalog.
     */
    private static final List<String> SYMBOLS_V2_ADDED = Arrays.asList(
        F.FORMATS, F.ACK, F.OK, F.REASON, F.START_TIME, F.FORMAT, F.COORDINATOR, F.RECORD, F.JOIN_DATA,
        F.SNAPSHOT, F.COMMON);

    /** Field names. */
    public static final class F {
        public static final String CLUSTER = "cluster";
        public static final String TOP_VER = "topVer";
        public static final String COUNTER = "counter";
        public static final String COUNT = "count";
        public static final String FIRST = "first";
        public static final String KIND = "kind";
        public static final String ID = "id";
        public static final String NODE = "node";
        public static final String DATA = "data";
        public static final String ORDER = "order";
        public static final String CLIENT = "client";
        public static final String FORMATS = "formats";
        public static final String ACK = "ack";
        public static final String OK = "ok";
        public static final String REASON = "reason";
        public static final String START_TIME = "startTime";
        public static final String FORMAT = "format";
        public static final String COORDINATOR = "coordinator";
        public static final String RECORD = "record";
        public static final String JOIN_DATA = "joinData";
        public static final String SNAPSHOT = "snapshot";
        public static final String COMMON = "common";

        private F() {
        }
    }

    private static final SimpleCatalog CATALOG = new SimpleCatalog();

    private static final IonSystem SYSTEM = IonSystemBuilder.standard().withCatalog(CATALOG).build();

    /** The table writers import: version 2, which extends version 1. */
    private static final SymbolTable TABLE = tables();

    /** Built once: the builder binds a block pool, and building one per writer costs an IonSystem. */
    private static final _Private_IonManagedBinaryWriterBuilder WRITERS = writers();

    private static final IonReaderBuilder READERS = IonReaderBuilder.standard().withCatalog(CATALOG).immutable();

    private IonSchema() {
    }

    private static SymbolTable tables() {
        // Version 2 is declared as an extension of version 1, which ion-java looks up in the catalog.
        CATALOG.putTable(SYSTEM.newSharedSymbolTable(TABLE_NAME, 1, SYMBOLS_V1.iterator()));

        SymbolTable v2 = SYSTEM.newSharedSymbolTable(TABLE_NAME, 2, SYMBOLS_V2_ADDED.iterator());

        CATALOG.putTable(v2);

        return v2;
    }

    private static _Private_IonManagedBinaryWriterBuilder writers() {
        // Padded length preallocation 2: two bytes reserved for each container length, so containers up to
        // 16 KB never need a patch point; measured at 0.55-0.69 of mode 1's time on records of this size.
        return _Private_IonManagedBinaryWriterBuilder.create(AllocatorMode.POOLED)
            .withUserBlockSize(4096)
            .withSymbolsBlockSize(1024)
            .withPaddedLengthPreallocation(2)
            .withCatalog(CATALOG)
            .withImports(TABLE)
            .withStreamCopyOptimization(true);
    }

    /** A binary writer that byte-copies values from {@link #reader(byte[])} readers. */
    public static IonWriter writer(OutputStream out) throws IOException {
        return WRITERS.newWriter(out);
    }

    /** A reader over bytes; only byte-array readers can be stream-copied from. */
    public static IonReader reader(byte[] data) {
        return READERS.build(data);
    }

    /** A reader over the first {@code len} bytes of {@code data}. */
    public static IonReader reader(byte[] data, int len) {
        return READERS.build(data, 0, len);
    }

    /** A reader over Ion text or binary, for parsing text dumps. */
    public static IonReader reader(String text) {
        return READERS.build(text);
    }

    /** @return The catalog holding the shared table, for readers and writers built elsewhere. */
    public static IonCatalog catalog() {
        return CATALOG;
    }
}
