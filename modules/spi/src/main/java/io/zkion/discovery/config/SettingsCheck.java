package io.zkion.discovery.config;

import java.util.Arrays;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.ignite.spi.IgniteSpiException;

/**
 * Checks the SPI's settings before anything connects, each failure with a message that names the setting and
 * what to set instead. Credentials are checked where they are read ({@link DigestCredentials}).
 */
public final class SettingsCheck {
    private final String zkConnectionString;
    private final String zkRootPath;
    private final long sessionTimeout;
    private final long joinTimeout;
    private final long maxInflatedBytes;
    private final String[] eventFormats;

    public SettingsCheck(String zkConnectionString, String zkRootPath, long sessionTimeout, long joinTimeout,
        long maxInflatedBytes, String[] eventFormats) {
        this.zkConnectionString = zkConnectionString;
        this.zkRootPath = zkRootPath;
        this.sessionTimeout = sessionTimeout;
        this.joinTimeout = joinTimeout;
        this.maxInflatedBytes = maxInflatedBytes;
        this.eventFormats = eventFormats;
    }

    /**
     * @param failureDetectionTimeout Ignite's, used when {@code sessionTimeout} is 0.
     * @return The session timeout to ask ZooKeeper for.
     * @throws IgniteSpiException If a setting is wrong.
     */
    public long sessionTimeout(long failureDetectionTimeout) {
        if (zkConnectionString == null || zkConnectionString.trim().isEmpty()) {
            throw new IgniteSpiException("ZkIonDiscoverySpi: zkConnectionString is not set; set it to the ZooKeeper "
                + "servers, for example 'zk1:2181,zk2:2181,zk3:2181'");
        }

        String rootErr = ZkPaths.validateRoot(zkRootPath);

        if (rootErr != null)
            throw new IgniteSpiException("ZkIonDiscoverySpi: " + rootErr);

        if (sessionTimeout < 0)
            throw new IgniteSpiException("ZkIonDiscoverySpi: sessionTimeout is negative (" + sessionTimeout + "); use 0 for the failure detection timeout");

        if (joinTimeout < 0)
            throw new IgniteSpiException("ZkIonDiscoverySpi: joinTimeout is negative (" + joinTimeout + "); use 0 to wait forever");

        if (maxInflatedBytes <= 0)
            throw new IgniteSpiException("ZkIonDiscoverySpi: maxInflatedBytes must be positive: " + maxInflatedBytes);

        for (String f : eventFormats) {
            if (FormatId.ofWireName(f) == null) {
                throw new IgniteSpiException("ZkIonDiscoverySpi: unknown event format '" + f + "'; known: "
                    + Arrays.toString(Arrays.stream(FormatId.values()).map(FormatId::wireName).toArray()));
            }
        }

        long t = sessionTimeout > 0 ? sessionTimeout : failureDetectionTimeout;

        if (t > Integer.MAX_VALUE)
            throw new IgniteSpiException("ZkIonDiscoverySpi: sessionTimeout is too large: " + t);

        return t;
    }
}
