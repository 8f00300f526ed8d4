package io.zkion.discovery.codec.ion;

import java.io.IOException;
import java.io.OutputStream;
import com.amazon.ion.IonWriter;

/**
 * One binary Ion writer per thread, pointed at a new output for each payload. Building a writer costs
 * about 5 KB of garbage, most of a small event's encoding; reusing it after {@code finish()} is safe from
 * ion-java 1.12.0 on (1.11.11 corrupted such output, ion-java #1150).
 */
final class ReusableIonWriter {
    private static final ThreadLocal<ReusableIonWriter> LOCAL = new ThreadLocal<>();

    /** Writes Ion values. */
    @FunctionalInterface
    interface Body {
        void write(IonWriter w) throws Exception;
    }

    private final Target target = new Target();
    private final IonWriter writer;
    private boolean claimed;

    private ReusableIonWriter() throws IOException {
        writer = IonSchema.writer(target);
    }

    /** Runs {@code body} with this thread's writer, writing into {@code out}; a complete Ion stream results. */
    static void write(OutputStream out, Body body) throws Exception {
        ReusableIonWriter r = LOCAL.get();

        if (r == null || r.claimed) {
            // First use on this thread, or nested use: a writer of its own.
            ReusableIonWriter fresh = new ReusableIonWriter();

            if (r == null)
                LOCAL.set(fresh);

            r = fresh;
        }

        r.claimed = true;
        r.target.out = out;

        boolean ok = false;

        try {
            body.write(r.writer);
            r.writer.finish();
            ok = true;
        }
        finally {
            r.target.out = null;
            r.claimed = false;

            // A writer that failed half-way may hold open containers: never reuse it.
            if (!ok && LOCAL.get() == r)
                LOCAL.remove();
        }
    }

    /** The writer's fixed output, forwarding to whatever the current payload is. */
    private static final class Target extends OutputStream {
        private OutputStream out;

        @Override public void write(int b) throws IOException {
            out.write(b);
        }

        @Override public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }
    }
}
