package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.Iterator;
import com.amazon.ion.Decimal;
import com.amazon.ion.IntegerSize;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.SymbolTable;
import com.amazon.ion.SymbolToken;
import com.amazon.ion.Timestamp;
import com.amazon.ion.impl._Private_ByteTransferReader;
import com.amazon.ion.impl._Private_ByteTransferSink;

/**
 * A reader that passes everything to ion-java's own reader and records, in {@link CopyStats}, whether
 * each value offered to {@link IonValueCopier} was byte-copied. ion-java decides by
 * {@code instanceof _Private_ByteTransferReader}, so implementing that interface keeps the copy path.
 */
final class CountingTransferReader implements IonReader, _Private_ByteTransferReader {
    private final IonReader d;
    private final _Private_ByteTransferReader transfer;
    private final CopyStats stats;
    private boolean lastTransferred;

    CountingTransferReader(IonReader d, CopyStats stats) {
        this.d = d;
        this.transfer = d instanceof _Private_ByteTransferReader ? (_Private_ByteTransferReader)d : null;
        this.stats = stats;
    }

    /** Resets the per-value flag before the writer is offered the current value. */
    void beforeWrite() {
        lastTransferred = false;
    }

    /**
     * @return Whether the value the writer was last offered went as a byte copy. The reader is then still on it, unread;
     *     a value re-encoded instead was stepped through, and must be read from the copy.
     */
    boolean transferred() {
        return lastTransferred;
    }

    /** Records what happened to the value the writer was just offered. */
    void afterWrite() {
        if (!lastTransferred)
            stats.onReencoded();
    }

    @Override public boolean isSymbolTableCompatible(SymbolTable symbolTable) {
        return transfer != null && transfer.isSymbolTableCompatible(symbolTable);
    }

    @Override public boolean transferCurrentValue(_Private_ByteTransferSink sink) throws IOException {
        if (transfer == null)
            return false;

        long[] bytes = new long[1];

        boolean ok = transfer.transferCurrentValue((b, off, len) -> {
            bytes[0] += len;
            sink.writeBytes(b, off, len);
        });

        if (ok) {
            lastTransferred = true;
            stats.onCopied(bytes[0]);
        }

        return ok;
    }

    // Plain delegation below.

    @Override public boolean hasNext() { return d.hasNext(); }
    @Override public IonType next() { return d.next(); }
    @Override public void stepIn() { d.stepIn(); }
    @Override public void stepOut() { d.stepOut(); }
    @Override public int getDepth() { return d.getDepth(); }
    @Override public SymbolTable getSymbolTable() { return d.getSymbolTable(); }
    @Override public IonType getType() { return d.getType(); }
    @Override public IntegerSize getIntegerSize() { return d.getIntegerSize(); }
    @Override public String[] getTypeAnnotations() { return d.getTypeAnnotations(); }
    @Override public SymbolToken[] getTypeAnnotationSymbols() { return d.getTypeAnnotationSymbols(); }
    @Override public Iterator<String> iterateTypeAnnotations() { return d.iterateTypeAnnotations(); }
    @Override public int getFieldId() { return d.getFieldId(); }
    @Override public String getFieldName() { return d.getFieldName(); }
    @Override public SymbolToken getFieldNameSymbol() { return d.getFieldNameSymbol(); }
    @Override public boolean isNullValue() { return d.isNullValue(); }
    @Override public boolean isInStruct() { return d.isInStruct(); }
    @Override public boolean booleanValue() { return d.booleanValue(); }
    @Override public int intValue() { return d.intValue(); }
    @Override public long longValue() { return d.longValue(); }
    @Override public BigInteger bigIntegerValue() { return d.bigIntegerValue(); }
    @Override public double doubleValue() { return d.doubleValue(); }
    @Override public BigDecimal bigDecimalValue() { return d.bigDecimalValue(); }
    @Override public Decimal decimalValue() { return d.decimalValue(); }
    @Override public Date dateValue() { return d.dateValue(); }
    @Override public Timestamp timestampValue() { return d.timestampValue(); }
    @Override public String stringValue() { return d.stringValue(); }
    @Override public SymbolToken symbolValue() { return d.symbolValue(); }
    @Override public int byteSize() { return d.byteSize(); }
    @Override public byte[] newBytes() { return d.newBytes(); }
    @Override public int getBytes(byte[] buf, int off, int len) { return d.getBytes(buf, off, len); }
    @Override public <T> T asFacet(Class<T> facetType) { return d.asFacet(facetType); }
    @Override public void close() throws IOException { d.close(); }
}
