package io.zkion.discovery.chaos;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What one node process saw, one line per fact, each line written and flushed at once: a node killed with
 * {@code kill -9} leaves every line it wrote before, so the checker reads its history up to its death.
 * A line is {@code <epoch ms> <KIND> <fields...>}; {@link NodeHistory} parses them.
 */
final class EventLog implements AutoCloseable {
    private final OutputStream out;

    EventLog(Path file) throws IOException {
        out = new FileOutputStream(file.toFile(), true);
    }

    synchronized void write(String kind, Object... fields) {
        StringBuilder sb = new StringBuilder().append(System.currentTimeMillis()).append(' ').append(kind);

        for (Object f : fields)
            sb.append(' ').append(f);

        sb.append('\n');

        try {
            out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        catch (IOException e) {
            // Without its log a node's history is unknown: the run must not go on as if it were empty.
            throw new IllegalStateException("Cannot write the event log", e);
        }
    }

    @Override public synchronized void close() throws IOException {
        out.close();
    }
}
