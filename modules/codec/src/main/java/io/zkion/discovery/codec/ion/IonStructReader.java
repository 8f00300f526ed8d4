package io.zkion.discovery.codec.ion;

import java.util.UUID;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import io.zkion.discovery.codec.CorruptPayloadException;

/**
 * Reads the fields of one struct the reader has stepped into, with errors that name the field and
 * what it is part of. Unknown fields are skipped, so a later minor revision can add fields.
 */
public final class IonStructReader {
    private final IonReader r;

    /** What the struct is, for errors; with {@link #part} and {@link #index}, joined only when an error names it. */
    private final String what;
    private final String part;
    private final int index;

    public IonStructReader(IonReader r, String what) {
        this(r, what, null, -1);
    }

    private IonStructReader(IonReader r, String what, String part, int index) {
        this.r = r;
        this.what = what;
        this.part = part;
        this.index = index;
    }

    /** Moves into the next top-level value, which must be a struct. */
    public static IonStructReader enter(IonReader r, String what) {
        return enter(r, what, null, -1);
    }

    /**
     * As {@link #enter(IonReader, String)}, for the {@code index}-th {@code part} of {@code what} (no index if
     * negative): every entry read names its parts so, and the name is built only for an error.
     */
    public static IonStructReader enter(IonReader r, String what, String part, int index) {
        IonType t = r.next();

        if (t != IonType.STRUCT) {
            throw new CorruptPayloadException(name(what, part, index) + ": expected a struct, found "
                + (t == null ? "the end of data" : t));
        }

        r.stepIn();

        return new IonStructReader(r, what, part, index);
    }

    /** @return What this struct is, as errors name it. */
    public String what() {
        return name(what, part, index);
    }

    private static String name(String what, String part, int index) {
        return part == null ? what : what + ' ' + part + (index < 0 ? "" : " " + index);
    }

    /** Fails unless a required field of this struct was seen. */
    public void require(boolean seen, String field) {
        if (!seen)
            require(false, field, what());
    }

    /** Moves into the value the reader is on, which must be a struct (a struct nested in a field, say). */
    public static IonStructReader enterCurrent(IonReader r, String what) {
        if (r.getType() != IonType.STRUCT || r.isNullValue())
            throw new CorruptPayloadException(what + ": expected a struct, found " + r.getType());

        r.stepIn();

        return new IonStructReader(r, what);
    }

    /** @return Name of the next field, or {@code null} at the end of the struct. */
    public String nextField() {
        while (r.next() != null) {
            String name = r.getFieldName();

            if (name != null)
                return name;
        }

        return null;
    }

    public void leave() {
        r.stepOut();
    }

    public long longValue(String field) {
        expect(field, IonType.INT);

        return r.longValue();
    }

    public boolean boolValue(String field) {
        expect(field, IonType.BOOL);

        return r.booleanValue();
    }

    public String symbol(String field) {
        expect(field, IonType.SYMBOL);

        return r.stringValue();
    }

    public UUID uuid(String field) {
        expect(field, IonType.STRING);

        try {
            return UUID.fromString(r.stringValue());
        }
        catch (IllegalArgumentException e) {
            throw new CorruptPayloadException(what() + ": field '" + field + "' is not a UUID: " + e.getMessage());
        }
    }

    public byte[] blob(String field) {
        expect(field, IonType.BLOB);

        return r.newBytes();
    }

    public String string(String field) {
        expect(field, IonType.STRING);

        return r.stringValue();
    }

    /** Reads a list of strings. */
    public java.util.List<String> strings(String field) {
        expect(field, IonType.LIST);

        java.util.List<String> out = new java.util.ArrayList<>();

        r.stepIn();

        while (r.next() != null) {
            if (r.getType() != IonType.STRING || r.isNullValue())
                throw new CorruptPayloadException(what() + ": field '" + field + "' should hold strings, holds " + r.getType());

            out.add(r.stringValue());
        }

        r.stepOut();

        return out;
    }

    private void expect(String field, IonType type) {
        if (r.getType() != type || r.isNullValue())
            throw new CorruptPayloadException(what() + ": field '" + field + "' should be " + type + ", is " + r.getType());
    }

    /** Writes {@code values} as a list of strings in field {@code field}: the writer's half of {@link #strings}. */
    public static void writeStrings(com.amazon.ion.IonWriter w, String field, java.util.List<String> values)
        throws java.io.IOException {
        w.setFieldName(field);
        w.stepIn(IonType.LIST);

        for (String v : values)
            w.writeString(v);

        w.stepOut();
    }

    /** Fails unless a required field was seen. */
    public static void require(boolean seen, String field, String what) {
        if (!seen)
            throw new CorruptPayloadException(what + ": required field '" + field + "' is missing");
    }
}
