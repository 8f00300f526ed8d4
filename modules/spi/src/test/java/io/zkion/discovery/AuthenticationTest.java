package io.zkion.discovery;

import java.io.Serializable;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.UUID;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteException;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.internal.IgniteNodeAttributes;
import org.apache.ignite.internal.processors.security.SecurityContext;
import org.apache.ignite.plugin.security.SecurityCredentials;
import org.apache.ignite.plugin.security.SecuritySubject;
import org.apache.ignite.plugin.security.SecuritySubjectType;
import org.apache.ignite.spi.discovery.DiscoverySpiNodeAuthenticator;
import org.junit.Test;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The coordinator runs Ignite's node authenticator on every join: a refused node gets "Authentication failed",
 * an accepted one joins with its security subject in its attributes, and credentials never reach ZooKeeper.
 * (Ignite sets the authenticator when a security plugin runs; here the test sets one on the SPI directly.)
 */
public class AuthenticationTest extends ZkIonTestSupport {
    @Test(timeout = 120_000) public void joinsAreAuthenticatedByTheCoordinator() throws Exception {
        ZkIonDiscoverySpi crdSpi = spi();

        crdSpi.setAuthenticator(new TokenAuthenticator());

        Ignite s1 = start(config("s1", false).setDiscoverySpi(crdSpi).setUserAttributes(Map.of("token", "ok")));
        Ignite s2 = start(config("s2", false).setUserAttributes(Map.of("token", "ok")));

        ClusterNode s2seen = s1.cluster().node(s2.cluster().localNode().id());

        assertNotNull("the subject travels in the attributes", s2seen.attribute(IgniteNodeAttributes.ATTR_SECURITY_SUBJECT_V2));

        try {
            start(config("intruder", false).setUserAttributes(Map.of("token", "forged")));
            fail("An unauthenticated node joined");
        }
        catch (IgniteException e) {
            assertTrue(JoinTest.messages(e), JoinTest.messages(e).contains("Authentication failed"));
        }
    }

    /** Accepts nodes whose "token" attribute is "ok". */
    private static final class TokenAuthenticator implements DiscoverySpiNodeAuthenticator {
        @Override public SecurityContext authenticateNode(ClusterNode node, SecurityCredentials cred) {
            return "ok".equals(node.attribute("token")) ? new Ctx(node.id()) : null;
        }

        @Override public boolean isGlobalNodeAuthentication() {
            return false;
        }
    }

    private static final class Ctx implements SecurityContext, Serializable {
        private static final long serialVersionUID = 1L;

        private final UUID id;

        Ctx(UUID id) {
            this.id = id;
        }

        @Override public SecuritySubject subject() {
            return new SecuritySubject() {
                @Override public UUID id() {
                    return id;
                }

                @Override public SecuritySubjectType type() {
                    return SecuritySubjectType.REMOTE_NODE;
                }

                @Override public Object login() {
                    return id.toString();
                }

                @Override public InetSocketAddress address() {
                    return null;
                }
            };
        }
    }
}
