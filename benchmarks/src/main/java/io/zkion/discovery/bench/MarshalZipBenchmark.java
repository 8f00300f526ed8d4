package io.zkion.discovery.bench;

import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import io.zkion.discovery.codec.LegacyZip;
import io.zkion.discovery.codec.Payloads;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.ignite.marshaller.Marshaller;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code marshalZip} four ways, on IGNITE-28848's payload shapes: the 2.17 shape (materialise, then zip),
 * ours (streaming through a buffered deflater), streaming without the buffer, and the marshaller alone
 * into a discarding stream, which is the floor every variant pays. Run with {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MarshalZipBenchmark {
    @Param({"MAP_2K", "MAP_100K", "LIST_1M"})
    public Payloads payload;

    private Object obj;
    private Marshaller marsh;
    private final StreamingZip zip = StreamingZip.defaults();

    @Setup public void setup() {
        obj = payload.create();
        marsh = JdkMarshallers.create();
    }

    @Benchmark public byte[] legacy() throws Exception {
        return LegacyZip.marshalZip(marsh, obj);
    }

    @Benchmark public byte[] streaming() throws Exception {
        return zip.marshalZip(marsh, obj);
    }

    /** The marshaller writing straight into a fresh DeflaterOutputStream: what the buffer saves. */
    @Benchmark public byte[] streamingUnbuffered() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Deflater d = new Deflater();

        try (DeflaterOutputStream dos = new DeflaterOutputStream(out, d)) {
            marsh.marshal(obj, dos);
        }
        finally {
            d.end();
        }

        return out.toByteArray();
    }

    @Benchmark public void marshalOnly(Blackhole bh) throws Exception {
        marsh.marshal(obj, new OutputStream() {
            @Override public void write(int b) {
                bh.consume(b);
            }

            @Override public void write(byte[] b, int off, int len) {
                bh.consume(len);
            }
        });
    }
}
