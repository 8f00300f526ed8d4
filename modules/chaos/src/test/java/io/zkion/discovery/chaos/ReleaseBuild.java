package io.zkion.discovery.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An earlier release of this project, built at test time from the repository's history: the code of the release's
 * commit, exported with {@code git archive} and packaged by Maven. Its codec and SPI jars are what the
 * mixed-release tests put on an old node's class path. Built once per checkout (under {@code target/releases}).
 */
final class ReleaseBuild {
    private ReleaseBuild() {
    }

    /** @return The release's codec and SPI jars, building them first if this checkout has not yet. */
    static List<Path> jars(String version, String commit) throws IOException, InterruptedException {
        Path out = Paths.get("target", "releases", version).toAbsolutePath();
        Path src = out.resolve("src");
        List<Path> jars = List.of(src.resolve("modules/codec/target/zkion-codec-" + version + ".jar"),
            src.resolve("modules/spi/target/zkion-discovery-" + version + ".jar"));

        if (jars.stream().allMatch(Files::isRegularFile))
            return jars;

        Path repo = repositoryRoot();

        deleteTree(out);
        Files.createDirectories(src);

        if (run(repo, out.resolve("git.log"), "git", "cat-file", "-e", commit + "^{commit}") != 0)
            throw new IllegalStateException("Release " + version + " is commit " + commit + ", which this clone's "
                + "history lacks (a shallow clone?): run `git fetch --unshallow` and test again");

        if (run(repo, out.resolve("git.log"), "sh", "-c", "git archive " + commit + " | tar -x -C '" + src + "'") != 0)
            throw new IllegalStateException("Could not export commit " + commit + "; see " + out.resolve("git.log"));

        Path log = out.resolve("build.log");

        if (run(src, log, "mvn", "-B", "-DskipTests", "-pl", "modules/spi", "-am", "package") != 0)
            throw new IllegalStateException("Building release " + version + " (commit " + commit + ") failed; see "
                + log);

        for (Path j : jars) {
            if (!Files.isRegularFile(j))
                throw new IllegalStateException("Building release " + version + " made no " + j + "; see " + log);
        }

        return jars;
    }

    /** @return The checkout's top: the nearest directory upwards from here that holds {@code .git}. */
    private static Path repositoryRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git")))
                return p;
        }

        throw new IllegalStateException("The mixed-release tests build the earlier release from the repository's "
            + "history, and no .git was found above " + Paths.get("").toAbsolutePath());
    }

    private static int run(Path dir, Path log, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();

        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not end in 15 minutes; see " + log);
        }

        return p.exitValue();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir))
            return;

        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }
}
