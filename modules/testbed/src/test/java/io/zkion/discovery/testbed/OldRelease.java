package io.zkion.discovery.testbed;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * Release 0.1.0's plugin jar for the rolling-upgrade scenario, built by {@code config/release.sh} from its commit
 * (the same commit the mixed-release tests use), once per checkout.
 */
final class OldRelease {
    static final String VERSION = "0.1.0";

    static final String COMMIT = "c7f83adc525f00639ff8b9accd1daf52309d51ff";

    private OldRelease() {
    }

    static Path allJar() throws IOException, InterruptedException {
        Path top = Testbed.checkout();
        Path out = top.resolve("target/release/" + VERSION);
        Path jar = out.resolve("zkion-discovery-" + VERSION + "-ignite-2.17-all.jar");
        if (Files.isRegularFile(jar))
            return jar;
        Path log = Files.createDirectories(top.resolve("target")).resolve("release-" + VERSION + ".log");
        Process p = new ProcessBuilder("bash", "config/release.sh", COMMIT, out.toString()).directory(top.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IllegalStateException("Building release " + VERSION + " took over 20 minutes; see " + log);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(jar))
            throw new IllegalStateException("Building release " + VERSION + " failed (a shallow clone? git fetch "
                + "--unshallow); see " + log);
        return jar;
    }

    /** Makes the folder hold this one plugin jar, as the containers mount it. */
    static void putIn(Path jar, Path dir) throws IOException {
        Files.createDirectories(dir);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "zkion-discovery-*.jar")) {
            for (Path o : old)
                Files.delete(o);
        }
        Files.copy(jar, dir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
}
