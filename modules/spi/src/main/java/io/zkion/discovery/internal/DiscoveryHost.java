package io.zkion.discovery.internal;

import java.util.Map;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;

/** What the engine needs from Ignite, through the SPI that Ignite configured. */
public interface DiscoveryHost {
    IgniteLogger log();

    /** The listener as Ignite set it now: null once Ignite's discovery manager has begun to stop. */
    DiscoverySpiListener listener();

    DiscoverySpiDataExchange exchange();

    /** The SPI context; before the kernal starts, Ignite's dummy one. */
    IgniteSpiContext spiContext();

    /** The authenticator Ignite set when a security plugin runs; null otherwise. */
    DiscoverySpiNodeAuthenticator authenticator();

    /** Fresh node attributes, for a client that rejoins. */
    Map<String, Object> nodeAttributes();

    String igniteInstanceName();

    /** @return Ignite's communication as a communication-failure round uses it; null where there is none. */
    default Communication communication() {
        return null;
    }
}
