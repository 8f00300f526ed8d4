package io.zkion.discovery.chaos;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the end-of-run history checks again on a finished run's node logs: {@code RecheckRun <run directory>}.
 * The survivors are the incarnations that stopped cleanly at the end. For a checker changed after a run.
 */
public final class RecheckRun {
    private RecheckRun() {
    }

    public static void main(String[] args) throws Exception {
        List<NodeHistory> all = new ArrayList<>();
        Set<String> stopped = new HashSet<>();

        try (DirectoryStream<Path> logs = Files.newDirectoryStream(Paths.get(args[0]), "*.log")) {
            for (Path f : logs) {
                NodeHistory h = NodeHistory.read(f);

                all.add(h);

                if (!h.lines.isEmpty() && h.lines.get(h.lines.size() - 1).kind.equals("STOPPED")
                    && h.lines.get(h.lines.size() - 1).fields[0].equals("STOPPED"))
                    stopped.add(h.key);
            }
        }

        List<Violation> found = new HistoryChecker(all, stopped, Long.MAX_VALUE).check();

        System.out.println(all.size() + " incarnations, " + stopped.size() + " stopped cleanly, " + found.size()
            + " violation(s)");
        found.forEach(System.out::println);
    }
}
