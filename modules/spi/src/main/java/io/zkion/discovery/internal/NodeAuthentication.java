package io.zkion.discovery.internal;

import java.io.Serializable;
import org.apache.ignite.internal.processors.security.SecurityContext;
import org.apache.ignite.internal.processors.security.SecurityUtils;
import org.apache.ignite.plugin.security.SecurityCredentials;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;

/**
 * Ignite's node authentication, as the node that admits another runs it: the coordinator for a joiner, the founder for
 * itself. Ignite runs every discovery event in the security context of the node it names, read from that node's
 * attributes: a node without its subject there stops Ignite's discovery notifier ("Security context isn't certain").
 */
public final class NodeAuthentication {
    private NodeAuthentication() {
    }

    /**
     * Authenticates {@code node} when a security plugin set an authenticator, and records its subject in its attributes.
     *
     * @return Null when admitted (or no plugin runs); else why not.
     */
    public static String authenticate(DiscoveryHost host, ObjectCodec objects, ZkIonClusterNode node,
        SecurityCredentials cred) {
        DiscoverySpiNodeAuthenticator auth = host.authenticator();

        if (auth == null)
            return null;

        SecurityContext subj = auth.authenticateNode(node, cred);

        if (subj == null)
            return "Authentication failed";

        if (!(subj instanceof Serializable))
            return "Authentication subject is not serializable";

        try {
            node.replaceAttributes(SecurityUtils.withSecurityContext(subj, node.attributes(), objects.marshaller()));
        }
        catch (Exception e) {
            return "Failed to marshal the node's security subject";
        }

        return null;
    }
}
