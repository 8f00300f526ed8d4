package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node incarnation's log, parsed. A client that rejoins does so under a new node id: each id it had is a
 * {@link View}, with the events and messages it delivered under that id.
 */
final class NodeHistory {
    /** One line: its time, kind and fields. */
    static final class Line {
        final long time;
        final String kind;
        final String[] fields;

        Line(long time, String kind, String[] fields) {
            this.time = time;
            this.kind = kind;
            this.fields = fields;
        }

        String field(String name) {
            for (String f : fields) {
                if (f.startsWith(name + '='))
                    return f.substring(name.length() + 1);
            }

            return null;
        }
    }

    /** What the incarnation saw under one node id, from {@code since} on (null id: it never finished starting). */
    static final class View {
        String id;
        long order;
        long since = Long.MAX_VALUE;
        /**
         * When the node's Ignite began to stop (its IGNITESTOP line, after its sends were drained), or never: from then
         * on Ignite hands its listeners less and less; what was first delivered elsewhere after it is not owed.
         */
        long until = Long.MAX_VALUE;
        /** Discovery events in delivery order: topVer, "TYPE nodeId". */
        final List<Line> events = new ArrayList<>();
        /** MSG and ACK lines in delivery order. */
        final List<Line> messages = new ArrayList<>();
    }

    final String key;
    /** Whether the incarnation is a client (its START line says so). */
    boolean client;
    final List<Line> lines = new ArrayList<>();
    final List<View> views = new ArrayList<>();
    /** Tags this incarnation sent, with the time each send returned. */
    final Map<String, Long> sent = new LinkedHashMap<>();
    /**
     * Tags this incarnation sent, with the node id it had when each send began; none for a send begun between a
     * disconnect and the reconnect, whose id cannot be told from the log.
     */
    final Map<String, String> sentAs = new HashMap<>();
    /** Tags this incarnation sent, with the time each send began (logs of older builds: none). */
    final Map<String, Long> sending = new LinkedHashMap<>();

    NodeHistory(String key, List<String> rawLines) {
        this.key = key;

        View view = new View();
        int atDisconnect = -1;
        Map<String, String> beganAs = new HashMap<>();

        views.add(view);

        for (String raw : rawLines) {
            String[] p = raw.split(" ");

            if (p.length < 2)
                continue;

            String[] fields = new String[p.length - 2];

            System.arraycopy(p, 2, fields, 0, fields.length);

            Line l = new Line(Long.parseLong(p[0]), p[1], fields);

            lines.add(l);

            switch (l.kind) {
                case "START":
                    client = Arrays.asList(l.fields).contains("client");
                    view.id = l.field("id");
                    view.order = Long.parseLong(l.field("order"));
                    view.since = l.time;
                    break;
                case "DISCONNECTED":
                    atDisconnect = view.messages.size();
                    break;
                case "RECONNECTED":
                    View next = new View();

                    next.id = l.field("id");
                    next.order = Long.parseLong(l.field("order"));
                    next.since = l.time;

                    // Ignite hands custom messages to their listener on another thread than it records the
                    // reconnect event: a message of the new life may be written just before RECONNECTED. One at
                    // the new life's join version or later, after the disconnect, is the new life's.
                    if (atDisconnect >= 0) {
                        List<Line> tail = view.messages.subList(atDisconnect, view.messages.size());

                        for (Line m : tail) {
                            if (Long.parseLong(m.fields[0]) >= next.order)
                                next.messages.add(m);
                        }

                        tail.removeIf(m -> Long.parseLong(m.fields[0]) >= next.order);
                    }

                    view = next;
                    atDisconnect = -1;
                    views.add(view);
                    break;
                case "IGNITESTOP":
                    view.until = Math.min(view.until, l.time);
                    break;
                case "EVT":
                    view.events.add(l);
                    break;
                case "MSG":
                case "ACK":
                    view.messages.add(l);
                    break;
                case "SENT":
                    sent.put(l.fields[0], l.time);

                    // Logs of older builds have no SENDING line: the id when it returned, if not disconnected then.
                    String as = sending.containsKey(l.fields[0]) ? beganAs.get(l.fields[0])
                        : atDisconnect < 0 ? view.id : null;

                    if (as != null)
                        sentAs.put(l.fields[0], as);

                    break;
                case "SENDING":
                    sending.put(l.fields[0], l.time);

                    if (atDisconnect < 0 && view.id != null)
                        beganAs.put(l.fields[0], view.id);

                    break;
                default:
            }
        }
    }

    static NodeHistory read(Path file) throws IOException {
        String name = file.getFileName().toString();

        return new NodeHistory(name.substring(0, name.length() - ".log".length()), CacheWorkload.wholeLines(file));
    }

    /** @return Every node log of a run directory, parsed. */
    static List<NodeHistory> readAll(Path dir) throws IOException {
        List<NodeHistory> all = new ArrayList<>();

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(dir, "*.log")) {
            for (Path f : logs)
                all.add(read(f));
        }

        return all;
    }

    /** @return The last view: what the node is now, if it is still running. */
    View current() {
        return views.get(views.size() - 1);
    }

    boolean has(String kind) {
        return lines.stream().anyMatch(l -> l.kind.equals(kind));
    }
}
