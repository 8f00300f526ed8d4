package io.zkion.discovery.codec.ion;

import java.io.IOException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonWriter;

/**
 * Re-emits values unchanged from one Ion stream into another. With a writer from {@link IonSchema#writer}
 * and a source read from a byte array, ion-java byte-copies each top-level value instead of decoding it;
 * {@link CopyStats} records whether it did.
 */
final class IonValueCopier {
    private final CountingTransferReader reader;

    IonValueCopier(byte[] source, CopyStats stats) {
        this.reader = new CountingTransferReader(IonSchema.reader(source), stats);
    }

    /** @return The reader, positioned by the caller with {@code next()} before each {@link #copyCurrent}. */
    IonReader reader() {
        return reader;
    }

    /** Writes the reader's current value into {@code w}. */
    void copyCurrent(IonWriter w) throws IOException {
        reader.beforeWrite();
        w.writeValue(reader);
        reader.afterWrite();
    }
}
