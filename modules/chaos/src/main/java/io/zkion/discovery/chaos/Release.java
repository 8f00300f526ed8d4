package io.zkion.discovery.chaos;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.ZkIonDiscoverySpi;

/**
 * What a node process runs: a build of the plugin (its class path) and the settings it starts with. The node's
 * application (ChaosNode and Ignite) is the same in every release; only ZkIon's own jars differ, as when an
 * operator swaps the plugin's jar.
 */
final class Release {
    /** File names of this project's own artifacts, the part of a class path one release replaces. */
    private static final String[] OWN = {"zkion-discovery-", "zkion-codec-"};
    /** Their directories when the reactor puts a module's classes on the class path instead of its jar. */
    private static final String[] OWN_DIRS = {"modules/spi/target/", "modules/codec/target/"};

    final String name;
    final String classPath;
    final List<String> jvmArgs;
    /** Where a node of this release loads the SPI class from (ChaosNode logs it at launch). */
    final String spiLocation;

    private Release(String name, String classPath, List<String> jvmArgs, String spiLocation) {
        this.name = name;
        this.classPath = classPath;
        this.jvmArgs = List.copyOf(jvmArgs);
        this.spiLocation = spiLocation;
    }

    /** The build under test: the controller's own class path. */
    static Release current(RunSettings s) {
        return new Release("current", s.classPath, List.of(), locationOf(ZkIonDiscoverySpi.class));
    }

    /**
     * @return The jar or directory a class was loaded from, as a path: the one form both the node's launch line and
     *      {@link #spiLocation} use, so that they compare equal whatever characters the path holds.
     */
    static String locationOf(Class<?> cls) {
        try {
            return Paths.get(cls.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException("No path for the location of " + cls.getName(), e);
        }
    }

    /** Another build: {@code classPath} with this project's own entries replaced by {@code jars}. */
    static Release of(String name, String classPath, List<Path> jars) {
        List<String> out = new ArrayList<>();
        String spi = null;

        for (Path j : jars) {
            out.add(j.toAbsolutePath().toString());

            if (j.getFileName().toString().startsWith(OWN[0]))
                spi = j.toAbsolutePath().toString();
        }

        for (String e : classPath.split(File.pathSeparator)) {
            if (!own(e))
                out.add(e);
        }

        return new Release(name, String.join(File.pathSeparator, out), List.of(), spi);
    }

    /** A build whose whole class path is given: another Ignite line's, say. */
    static Release of(String name, List<String> classPath, Path spiJar) {
        return new Release(name, String.join(File.pathSeparator, classPath), List.of(),
            spiJar.toAbsolutePath().toString());
    }

    /** @return This release started with {@code args} too (system properties the node reads). */
    Release with(String... args) {
        List<String> all = new ArrayList<>(jvmArgs);

        all.addAll(List.of(args));

        return new Release(name, classPath, all, spiLocation);
    }

    private static boolean own(String entry) {
        String unix = entry.replace(File.separatorChar, '/');
        String file = unix.substring(unix.lastIndexOf('/', unix.length() - 2) + 1);

        for (String p : OWN) {
            if (file.startsWith(p) && file.endsWith(".jar"))
                return true;
        }

        for (String d : OWN_DIRS) {
            if (unix.contains(d))
                return true;
        }

        return false;
    }

    @Override public String toString() {
        return name;
    }
}
