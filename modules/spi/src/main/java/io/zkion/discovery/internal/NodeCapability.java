package io.zkion.discovery.internal;

import java.util.HashMap;
import java.util.Map;
import org.apache.ignite.cluster.ClusterNode;

/**
 * A protocol feature a node advertises in its attributes, with the version it speaks, so that nodes of releases
 * without it are told apart in a mixed cluster (communication failure rounds, lazy acks, the metrics relay).
 */
public final class NodeCapability {
    private final String attribute;
    private final int version;

    public NodeCapability(String attribute, int version) {
        this.attribute = attribute;
        this.version = version;
    }

    /** @return {@code attrs} with this capability's attribute added. */
    public Map<String, Object> advertise(Map<String, Object> attrs) {
        Map<String, Object> m = new HashMap<>(attrs);

        m.put(attribute, version);

        return m;
    }

    /** @return Whether {@code n} advertises this capability at this version or later. */
    public boolean of(ClusterNode n) {
        Object v = n.attribute(attribute);

        return v instanceof Integer && (Integer)v >= version;
    }
}
