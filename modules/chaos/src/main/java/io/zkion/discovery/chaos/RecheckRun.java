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
 * Runs the end-of-run history checks again on a finished run's node logs: {@code RecheckRun <run directory>}.
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

        List<Violation> found = new HistoryChecker(all, stopped, Long.MAX_VALUE).aimedAt(targets(Paths.get(args[0])))
            .check();

        System.out.println("targets of faults: " + targets(Paths.get(args[0])).size());
        System.out.println(all.size() + " incarnations, " + stopped.size() + " stopped cleanly, " + found.size()
            + " violation(s)");
        found.forEach(System.out::println);
    }

    /** @return The incarnations the run's faults were aimed at, from its progress.txt ("fault 7/100 KIND target ..."). */
    static Set<String> targets(Path runDir) throws IOException {
        Set<String> out = new HashSet<>();
        Pattern fault = Pattern.compile(" fault \\d+/\\d+ \\S+ ([^ :]+)");

        for (String line : Files.readAllLines(runDir.resolve("progress.txt"))) {
            Matcher m = fault.matcher(line);

            if (m.find())
                out.add(m.group(1));
        }

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
