package io.zkion.discovery.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
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

    /** @return The addresses, sorted: a consistent id derived from them must not depend on the order found. */
    public List<String> sorted() {
        List<String> out = new ArrayList<>(addrs);

        Collections.sort(out);

        return out;
    }
}
