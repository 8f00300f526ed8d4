package io.zkion.discovery.config;

import java.io.Serializable;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.internal.util.typedef.internal.U;
import org.apache.ignite.lang.IgniteBiTuple;
import org.apache.ignite.spi.IgniteSpiException;

/** The local node's addresses and host names, resolved the way Ignite's own SPIs do. */
public final class LocalAddresses {
    public final Collection<String> addrs;
    public final Collection<String> hostNames;

    private LocalAddresses(Collection<String> addrs, Collection<String> hostNames) {
        this.addrs = addrs;
        this.hostNames = hostNames;
    }

    /** @param localHost Ignite's {@code localHost} setting; null for every interface. */
    public static LocalAddresses resolve(String localHost) {
        try {
            InetAddress host = U.resolveLocalHost(localHost);
            IgniteBiTuple<Collection<String>, Collection<String>> t = U.resolveLocalAddresses(host);

            return new LocalAddresses(new ArrayList<>(t.get1()), new ArrayList<>(t.get2()));
        }
        catch (Exception e) {
            throw new IgniteSpiException("Failed to resolve local addresses: " + e, e);
        }
    }

    /**
     * @return The node's consistent id: the configured one, else one derived from these addresses (sorted, so that
     *      it does not depend on the order they were found in) and the communication port, as Ignite's SPIs derive it.
     */
    public Serializable consistentId(IgniteConfiguration cfg, Map<String, Object> attrs) {
        if (cfg.getConsistentId() != null)
            return cfg.getConsistentId();

        List<String> sorted = new ArrayList<>(addrs);
        // Named after the communication SPI, whose name is its class's unless configured: a subclass's differs.
        Object port = attrs == null || cfg.getCommunicationSpi() == null ? null
            : attrs.get(cfg.getCommunicationSpi().getName() + ".comm.tcp.port");

        Collections.sort(sorted);

        return port instanceof Integer ? U.consistentId(sorted, (Integer)port) : cfg.getNodeId();
    }
}
