package io.zkion.discovery.tools;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.zip.Inflater;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import com.amazon.ion.system.IonTextWriterBuilder;
import io.zkion.discovery.codec.ion.IonEventFormat;

/**
 * Our Ion payloads as text an operator reads: pretty Ion, or JSON. Blobs hold JDK-serialized Ignite objects (nodes,
 * messages), compressed: in their place goes the class name and the size, which the tool finds without ignite-core
 * on its class path, instead of base64 nobody reads.
 */
final class IonRendering {
    /** Bytes of a blob inflated to find its class name: the name comes first in a serialization stream. */
    private static final int HEAD = 4_096;

    private final IonTextWriterBuilder builder;

    /** JSON holds one value per payload: the payload's values go into a list. */
    final boolean json;

    private IonRendering(IonTextWriterBuilder builder, boolean json) {
        this.builder = builder;
        this.json = json;
    }

    static IonRendering ion() {
        return new IonRendering(IonTextWriterBuilder.pretty().withMinimalSystemData(), false);
    }

    static IonRendering json() {
        return new IonRendering(IonTextWriterBuilder.json(), true);
    }

    /** @return The raw (inflated) Ion {@code ion}, rendered. */
    String render(byte[] ion, String what) {
        StringBuilder out = new StringBuilder(ion.length * 2);

        IonEventFormat.read(ion, what, r -> {
            try (IonWriter w = builder.build(out)) {
                if (json)
                    w.stepIn(IonType.LIST);

                while (r.next() != null)
                    copy(r, w);

                if (json)
                    w.stepOut();
            }

            return null;
        });

        return out.toString();
    }

    private static void copy(IonReader r, IonWriter w) throws IOException {
        IonType t = r.getType();

        if (r.isInStruct())
            w.setFieldName(r.getFieldName());

        w.setTypeAnnotations(r.getTypeAnnotations());

        if (t == IonType.BLOB && !r.isNullValue()) {
            w.writeString(describe(r.newBytes()));
        }
        else if (!r.isNullValue() && (t == IonType.STRUCT || t == IonType.LIST || t == IonType.SEXP)) {
            r.stepIn();
            w.stepIn(t);

            while (r.next() != null)
                copy(r, w);

            r.stepOut();
            w.stepOut();
        }
        else
            w.writeValue(r);
    }

    /** @return What a blob holds: "java ClassName, N bytes" when it is a (zlib-wrapped) serialized object. */
    static String describe(byte[] blob) {
        byte[] plain = blob.length > 1 && (blob[0] & 0xff) == 0x78 ? inflatedHead(blob) : blob;
        String cls = plain == null ? null : serializedClass(plain);

        return (cls == null ? "bytes" : "java " + cls) + ", " + blob.length + " bytes";
    }

    private static byte[] inflatedHead(byte[] zipped) {
        Inflater inf = new Inflater();

        try {
            inf.setInput(zipped);

            byte[] head = new byte[HEAD];
            int n = inf.inflate(head);

            return java.util.Arrays.copyOf(head, n);
        }
        catch (Exception notZlib) {
            return null;
        }
        finally {
            inf.end();
        }
    }

    /** @return The class of the first object in a JDK serialization stream, or null if it is none. */
    static String serializedClass(byte[] b) {
        // Magic and version, then TC_OBJECT and TC_CLASSDESC, then the class name in modified UTF-8.
        if (b.length < 9 || (b[0] & 0xff) != 0xAC || (b[1] & 0xff) != 0xED || b[4] != 0x73 || b[5] != 0x72)
            return null;

        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b, 6, b.length - 6))) {
            return in.readUTF();
        }
        catch (IOException truncated) {
            return null;
        }
    }
}
