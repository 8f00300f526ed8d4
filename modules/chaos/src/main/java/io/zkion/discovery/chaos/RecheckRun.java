package io.zkion.discovery.chaos;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the end-of-run history checks again on a finished run's node logs: {@code RecheckRun <run directory>
 * [report.json]}; with the report, failures are judged against the faults it lists.
 * The survivors are the last incarnations of each node that stopped cleanly at the end. For a checker changed after
 * a run.
 */
public final class RecheckRun {
    private RecheckRun() {
    }

    public static void main(String[] args) throws Exception {
        List<NodeHistory> all = new ArrayList<>();
        Set<String> stopped = new HashSet<>();
        // Node name to its last incarnation: only those were stopped by the run's end, not by a restart within it.
        Map<String, Integer> last = new HashMap<>();

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(Paths.get(args[0]), "*.log")) {
            for (Path f : logs) {
                NodeHistory h = NodeHistory.read(f);

                all.add(h);

                if (!h.lines.isEmpty() && h.lines.get(h.lines.size() - 1).kind.equals("STOPPED")
                    && h.lines.get(h.lines.size() - 1).fields[0].equals("STOPPED"))
                    stopped.add(h.key);

                last.merge(name(h.key), incarnation(h.key), Math::max);
            }
        }

        stopped.removeIf(key -> incarnation(key) != last.get(name(key)));

        Map<String, List<Long>> faults = args.length > 1 ? faults(Paths.get(args[1])) : null;

        if (faults == null)
            System.out.println("No report given: failures and failed senders are not judged");
        else
            System.out.println("faults aimed at nodes: " + faults.values().stream().mapToInt(List::size).sum());

        List<Violation> found = new HistoryChecker(all, stopped, Long.MAX_VALUE).aimedAt(faults).check();

        System.out.println(all.size() + " incarnations, " + stopped.size() + " stopped cleanly, " + found.size()
            + " violation(s)");
        found.forEach(System.out::println);
    }

    /** @return The incarnations the run's faults were aimed at, with their injection times, from its report JSON. */
    static Map<String, List<Long>> faults(Path report) throws IOException {
        Map<String, List<Long>> out = new HashMap<>();
        Pattern fault = Pattern.compile("\"target\": \"([^\" ]+)[^\"]*\", \"injectedAt\": (\\d+)");
        Matcher m = fault.matcher(new String(Files.readAllBytes(report), java.nio.charset.StandardCharsets.UTF_8));

        while (m.find())
            out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(Long.parseLong(m.group(2)));

        return out;
    }

    /** @return "s3" of "s3.27". */
    private static String name(String key) {
        return key.substring(0, key.indexOf('.'));
    }

    /** @return 27 of "s3.27". */
    private static int incarnation(String key) {
        return Integer.parseInt(key.substring(key.indexOf('.') + 1));
    }
}
