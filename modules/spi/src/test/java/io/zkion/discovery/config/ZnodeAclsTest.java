package io.zkion.discovery.config;

import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The read-only identity's ACL: on every znode but join requests and payload parts, and only as a hashed digest. */
public class ZnodeAclsTest {
    @Test public void theMonitorReadsAllButJoinRequestsAndParts() throws Exception {
        String id = "digest:" + ZnodeAcls.digest("monitor:watch");
        ZnodeAcls acls = new ZnodeAcls("/r", id);

        assertEquals("ZooKeeper's own digest", DigestAuthenticationProvider.generateDigest("monitor:watch"),
            id.substring("digest:".length()));

        for (String p : new String[] {"/r", "/r/state", "/r/alive/x", "/r/log/e0-0000000001", "/r/join", "/r/parts"}) {
            List<ACL> acl = acls.getAclForPath(p);

            assertEquals(p, 2, acl.size());
            assertEquals(p, ZooDefs.Perms.READ, acl.get(1).getPerms());
            assertEquals(p, id.substring("digest:".length()), acl.get(1).getId().getId());
        }

        for (String p : new String[] {"/r/join/x", "/r/parts/x-0"})
            assertEquals(p, ZooDefs.Ids.CREATOR_ALL_ACL, acls.getAclForPath(p));

        assertEquals(ZooDefs.Ids.CREATOR_ALL_ACL, new ZnodeAcls("/r", null).getAclForPath("/r/state"));
    }

    @Test public void aPasswordInPlaceOfItsHashIsRefused() {
        try {
            ZnodeAcls.id("digest:monitor:watch");
            fail("took a password for a digest id");
        }
        catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not the password itself; zkion-cli digest prints it"));
        }

        assertEquals("sasl", ZnodeAcls.id("sasl:monitor").getScheme());
    }
}
