package io.zkion.discovery.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * The {@code zkDigestAuth} setting, resolved: {@code user:password} as it is, {@code env:NAME} from an environment
 * variable, or {@code file:PATH} from the first line of a file, so that credentials need not stand in a Spring XML
 * file. Errors name the variable or the file, never what they hold.
 */
public final class DigestCredentials {
    private static final String ENV = "env:";
    private static final String FILE = "file:";

    private DigestCredentials() {
    }

    /** @return {@code user:password}, or null when {@code setting} is null. */
    public static String resolve(String setting) {
        if (setting == null)
            return null;

        String value;

        if (setting.startsWith(ENV)) {
            String name = setting.substring(ENV.length());

            value = System.getenv(name);

            if (value == null)
                throw new IgniteSpiException("ZkIonDiscoverySpi: zkDigestAuth names the environment variable " + name
                    + ", which is not set");
        }
        else if (setting.startsWith(FILE)) {
            Path path = Paths.get(setting.substring(FILE.length()));

            try {
                value = Files.readAllLines(path, StandardCharsets.UTF_8).stream().findFirst().orElse("").trim();
            }
            catch (IOException e) {
                throw new IgniteSpiException("ZkIonDiscoverySpi: zkDigestAuth names the file " + path + ", which cannot"
                    + " be read: " + e.getClass().getSimpleName());
            }
        }
        else
            value = setting;

        if (value.indexOf(':') <= 0)
            throw new IgniteSpiException("ZkIonDiscoverySpi: zkDigestAuth must be 'user:password' (the value is not shown)");

        return value;
    }

    /**
     * @param security Whether Ignite's security is on: then joining nodes' credentials are in their requests.
     * @return What to tell an operator whose znodes anyone who reaches ZooKeeper can read and rewrite.
     */
    public static String openWarning(String root, boolean security) {
        return "The znodes under " + root + " are open to every ZooKeeper client, to read and to write: set"
            + " zkDigestAuth, or log in to ZooKeeper with SASL, to make them creator-only" + (security ? ". Ignite's security is on: each joining node's"
            + " credentials are in its join request, readable by any ZooKeeper client meanwhile" : "");
    }
}
