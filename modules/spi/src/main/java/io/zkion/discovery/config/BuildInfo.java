package io.zkion.discovery.config;

import java.io.InputStream;
import java.util.Properties;

/** What this jar is: its release, and the Ignite line it is built for (2.17 or 2.18), as Maven wrote them. */
public final class BuildInfo {
    private static final Properties PROPS = load();

    private BuildInfo() {
    }

    private static Properties load() {
        Properties p = new Properties();

        try (InputStream in = BuildInfo.class.getResourceAsStream("/io/zkion/discovery/zkion-build.properties")) {
            if (in != null)
                p.load(in);
        }
        catch (Exception ignored) {
            // Unknown, as below: a jar built without the resource still runs.
        }

        return p;
    }

    /** @return The release, such as {@code 0.2.0}; "unknown" when the jar lacks its build record. */
    public static String release() {
        return PROPS.getProperty("release", "unknown");
    }

    /** @return The Ignite version the jar was built against, such as {@code 2.17.0}. */
    public static String igniteLine() {
        return PROPS.getProperty("igniteLine", "unknown");
    }

    /** @return One line naming both, for logs and {@code --version}. */
    public static String describe() {
        return "ZkIon Discovery " + release() + " for Apache Ignite " + igniteLine();
    }
}
