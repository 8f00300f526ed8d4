package io.zkion.discovery;

import java.util.Map;
import java.util.function.Supplier;
import io.zkion.discovery.internal.Communication;
import io.zkion.discovery.internal.DiscoveryHost;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;

/**
 * What the engine needs from Ignite, as Ignite set it on the SPI before the start. The listener, the context and the
 * node's attributes are read when asked: Ignite replaces the context once the kernal starts, and a client's attributes
 * when it rejoins.
 */
final class SpiHost implements DiscoveryHost {
    private final IgniteLogger log;
    private final Supplier<DiscoverySpiListener> lsnr;
    private final DiscoverySpiDataExchange exchange;
    private final DiscoverySpiNodeAuthenticator auth;
    private final Supplier<IgniteSpiContext> spiCtx;
    private final Supplier<Map<String, Object>> attrs;
    private final String instanceName;
    private final Communication communication;

    SpiHost(IgniteLogger log, Supplier<DiscoverySpiListener> lsnr, DiscoverySpiDataExchange exchange,
        DiscoverySpiNodeAuthenticator auth, Supplier<IgniteSpiContext> spiCtx, Supplier<Map<String, Object>> attrs,
        String instanceName, Communication communication) {
        this.log = log;
        this.lsnr = lsnr;
        this.exchange = exchange;
        this.auth = auth;
        this.spiCtx = spiCtx;
        this.attrs = attrs;
        this.instanceName = instanceName;
        this.communication = communication;
    }

    @Override public IgniteLogger log() {
        return log;
    }

    @Override public DiscoverySpiListener listener() {
        return lsnr.get();
    }

    @Override public DiscoverySpiDataExchange exchange() {
        return exchange;
    }

    @Override public IgniteSpiContext spiContext() {
        return spiCtx.get();
    }

    @Override public DiscoverySpiNodeAuthenticator authenticator() {
        return auth;
    }

    @Override public Map<String, Object> nodeAttributes() {
        return attrs.get();
    }

    @Override public String igniteInstanceName() {
        return instanceName;
    }

    @Override public Communication communication() {
        return communication;
    }
}
