package io.zkion.discovery.coordinator;

import java.io.Serializable;
import java.util.Map;
import io.zkion.discovery.codec.msg.JoinRequest;
import io.zkion.discovery.internal.DiscoveryHost;
import io.zkion.discovery.internal.NodeAuthentication;
import io.zkion.discovery.internal.ObjectCodec;
import io.zkion.discovery.internal.ZkIonClusterNode;
import io.zkion.discovery.member.Member;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.ignite.plugin.security.SecurityCredentials;
import org.apache.ignite.events.NodeValidationFailedEvent;
import org.apache.ignite.spi.IgniteNodeValidationResult;
import org.apache.ignite.spi.IgniteSpiContext;
import org.apache.ignite.spi.discovery.DiscoveryDataBag;

/** Whether a joiner may join: a request that names itself, a format it reads, Ignite's authentication and checks. */
final class JoinValidator {
    private final ZkPaths paths;
    private final ObjectCodec objects;
    private final Member member;
    private final DiscoveryHost host;
    private final ZkIonClusterNode local;

    JoinValidator(CoordinatorContext ctx) {
        this.paths = ctx.paths;
        this.objects = ctx.objects;
        this.member = ctx.member;
        this.host = ctx.host;
        this.local = ctx.local;
    }

    /**
     * @param format The format the cluster writes, which the joiner must read.
     * @param attrsChanged Its one element is set when authentication added the security subject to the node's
     *      attributes.
     * @return Why the node may not join; null if it may.
     */
    String validate(ZkIonClusterNode node, Map<Integer, Serializable> joinData, JoinRequest req, String format,
        boolean[] attrsChanged) {
        if (!node.id().equals(req.nodeId))
            return "The join request of " + req.nodeId + " carries node " + node.id();

        if (member.topology().contains(node.id()))
            return "Node with the same ID already exists: " + node.id();

        if (!req.formats.contains(format)) {
            return "The joining node reads event formats " + req.formats + ", but the cluster writes " + format
                + " and not every node reads another: upgrade the joining node";
        }

        String authErr = authenticate(node, req, attrsChanged);

        if (authErr != null)
            return authErr;

        IgniteSpiContext ctx = host.spiContext();
        IgniteNodeValidationResult res = ctx.validateNode(node);

        if (res == null) {
            DiscoveryDataBag bag = new DiscoveryDataBag(node.id(), node.isClient());

            bag.joiningNodeData(joinData);
            res = ctx.validateNode(node, bag);
        }

        if (res == null)
            return null;

        // Ignite's listeners of EVT_NODE_VALIDATION_FAILED learn of it on the node that validated, as with its SPIs.
        ctx.recordEvent(new NodeValidationFailedEvent(local, node, res));

        return res.sendMessage();
    }

    /** Runs Ignite's authenticator, when a security plugin set one, and records the subject in the attributes. */
    private String authenticate(ZkIonClusterNode node, JoinRequest req, boolean[] attrsChanged) {
        if (host.authenticator() == null)
            return null;

        SecurityCredentials cred;

        try {
            cred = req.credentials == null ? null : objects.unmarshal(req.credentials, paths.join(node.id()) + " credentials");
        }
        catch (RuntimeException e) {
            return "Failed to read the node's credentials";
        }

        String err = NodeAuthentication.authenticate(host, objects, node, cred);

        attrsChanged[0] = err == null;

        return err;
    }
}
