package io.zkion.discovery.bench.scale;

import java.io.Serializable;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import io.zkion.discovery.internal.AckPolicy;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.Topology;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.lang.IgniteBiPredicate;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;
import org.apache.ignite.spi.discovery.DiscoverySpiDataExchange;
import org.apache.ignite.spi.discovery.DiscoverySpiListener;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;

/**
 * The small host a simulated member has in place of an Ignite kernal: the captured node's attributes, its joining
 * data and its coordinator's common data as Ignite's components would hand them over, a listener that tallies, and an
 * SPI context that validates every node and carries the outage guard's messages.
 */
final class SimHost implements DiscoveryHost {
    private final String name;
    private final IgniteLogger log;
    private final SimListener lsnr;
    private final NodeDataSample sample;
    private final Map<String, Object> attrs;
    private final SimComms comms;
    private final UUID id;
    private final IgniteSpiContext ctx;
    private volatile Supplier<Topology> topology = () -> Topology.EMPTY;

    SimHost(String name, UUID id, NodeDataSample sample, SimListener lsnr, SimComms comms) {
        this.name = name;
        this.id = id;
        this.log = new StderrLogger(name);
        this.lsnr = lsnr;
        this.sample = sample;
        this.comms = comms;
        // As the SPI adds it to Ignite's; left out, members ack as under an older coordinator (to compare the two).
        this.attrs = Boolean.getBoolean("zkion.scale.promptAcks") ? sample.attributesOf(name)
            : AckPolicy.withCapability(sample.attributesOf(name));
        this.attrs.put(SimComms.PORT_ATTR, comms.port());
        this.ctx = context();
    }

    /** The member's topology, which the SPI context answers {@code node(id)} from. */
    void topology(Supplier<Topology> topology) {
        this.topology = topology;
    }

    @Override public IgniteLogger log() {
        return log;
    }

    @Override public DiscoverySpiListener listener() {
        return lsnr;
    }

    @Override public DiscoverySpiDataExchange exchange() {
        return new DiscoverySpiDataExchange() {
            @Override public DiscoveryDataBag collect(DiscoveryDataBag bag) {
                // A joiner's own components add joining data; on the coordinator they add the cluster's common data.
                if (bag.joiningNodeData().isEmpty())
                    sample.joiningData.forEach(bag::addJoiningNodeData);
                else
                    sample.commonData.forEach(bag::addGridCommonData);

                return bag;
            }

            @Override public void onExchange(DiscoveryDataBag bag) {
                // Ignite's components would read it; nobody here does.
            }
        };
    }

    @Override public IgniteSpiContext spiContext() {
        return ctx;
    }

    @Override public DiscoverySpiNodeAuthenticator authenticator() {
        return null;
    }

    @Override public Map<String, Object> nodeAttributes() {
        return attrs;
    }

    @Override public String igniteInstanceName() {
        return name;
    }

    /**
     * An SPI context with what ZkIon asks of it: the nodes of the member's topology, messages to them and from them
     * through {@link SimComms}. Every other answer is "nothing": every node is valid, no event is recorded.
     */
    private IgniteSpiContext context() {
        return (IgniteSpiContext)Proxy.newProxyInstance(SimHost.class.getClassLoader(),
            new Class<?>[] {IgniteSpiContext.class}, (p, m, args) -> {
                switch (m.getName()) {
                    case "node":
                        return topology.get().node((UUID)args[0]);
                    case "send":
                        ClusterNode to = (ClusterNode)args[0];
                        Object port = to.attribute(SimComms.PORT_ATTR);

                        if (port == null)
                            throw new IgniteSpiException("No communication port for " + to.id());

                        comms.send((Integer)port, to.id(), id, (String)args[2], (Serializable)args[1]);
                        return null;
                    case "addLocalMessageListener":
                        comms.listen(id, (String)args[0], (IgniteBiPredicate<UUID, Object>)args[1]);
                        return null;
                    case "removeLocalMessageListener":
                        comms.unlisten(id, (String)args[0]);
                        return null;
                    default:
                        break;
                }

                Class<?> t = m.getReturnType();

                if (t == boolean.class)
                    return false;
                if (t == int.class || t == long.class)
                    return t == int.class ? (Object)0 : (Object)0L;
                if (t == java.util.Collection.class)
                    return Collections.emptyList();
                if (m.getName().equals("toString"))
                    return "SimSpiContext";

                return null;
            });
    }
}
