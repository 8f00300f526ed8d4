package io.zkion.discovery.codec.ion;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import com.amazon.ion.IonException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonWriter;
import com.amazon.ion.system.IonTextWriterBuilder;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.CorruptPayloadException;

/**
 * Ion text for people: renders any of our payloads (events, snapshots, records) as pretty Ion text, and
 * parses such text back into a payload, for diagnostics and hand-made fixtures.
 */
public final class IonText {
    private static final IonTextWriterBuilder PRETTY = IonTextWriterBuilder.pretty().withMinimalSystemData()
        .withCatalog(IonSchema.catalog())
        .immutable();

    private final IonEventFormat format;

    public IonText(IonEventFormat format) {
        this.format = format;
    }

    /** @return The Ion inside an {@link IonEventFormat} payload, as pretty text. */
    public String render(byte[] payload, String what) {
        return renderIon(format.inflate(payload, what), what);
    }

    /** @return Raw Ion bytes (a {@link NodeRecord}, say) as pretty text. */
    public static String renderIon(byte[] ion, String what) {
        StringBuilder out = new StringBuilder(ion.length * 3);

        IonEventFormat.read(ion, what, r -> {
            try (IonWriter w = PRETTY.build(out)) {
                w.writeValues(r);
            }

            return null;
        });

        return out.toString();
    }

    /** @return Ion text (as {@link #render} wrote it) as a payload again. */
    public byte[] parse(String text, String what) {
        return format.wrap(w -> copyAll(text, what, w));
    }

    /** @return Ion text as raw Ion binary, without envelope. */
    public static byte[] parseIon(String text, String what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());

        try {
            ReusableIonWriter.write(out, w -> copyAll(text, what, w));
        }
        catch (CodecException e) {
            throw e;
        }
        catch (Exception e) {
            throw new CodecException("Failed to write the Ion of " + what, e);
        }

        return out.toByteArray();
    }

    private static void copyAll(String text, String what, IonWriter w) throws IOException {
        try (IonReader r = IonSchema.reader(text)) {
            w.writeValues(r);
        }
        catch (IonException e) {
            throw new CorruptPayloadException("Invalid Ion text in " + what + ": "
                + e.getMessage(), e);
        }
    }
}
