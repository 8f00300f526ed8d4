package io.zkion.discovery.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * The ACL of each znode a node creates when it authenticates: everything for the identity it authenticates as, and,
 * with {@code zkReadAccess}, read for one more identity, a monitoring one (zkion-cli). That identity never reads a
 * join request or a payload part: with Ignite's security on, a joiner's credentials travel there.
 */
public final class ZnodeAcls implements ACLProvider {
    private final List<ACL> everywhere;
    private final String[] noReadUnder;

    /**
     * @param root The cluster's root.
     * @param readAccess {@code scheme:id} of the read-only identity (such as {@code digest:monitor:<hash>}), or null.
     */
    public ZnodeAcls(String root, String readAccess) {
        List<ACL> acl = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);

        if (readAccess != null)
            acl.add(new ACL(ZooDefs.Perms.READ, id(readAccess)));

        everywhere = acl;
        noReadUnder = new String[] {root + "/join/", root + "/parts/"};
    }

    @Override public List<ACL> getDefaultAcl() {
        return everywhere;
    }

    @Override public List<ACL> getAclForPath(String path) {
        for (String dir : noReadUnder) {
            if (path.startsWith(dir))
                return ZooDefs.Ids.CREATOR_ALL_ACL;
        }

        return everywhere;
    }

    /**
     * @return {@code scheme:id} as ZooKeeper's ACL id.
     * @throws IllegalArgumentException If it is not {@code scheme:id}, or a digest id without its hash.
     */
    public static Id id(String readAccess) {
        int colon = readAccess.indexOf(':');

        if (colon <= 0 || colon == readAccess.length() - 1)
            throw new IllegalArgumentException("zkReadAccess must be 'scheme:id', such as 'digest:monitor:<hash>' ("
                + "zkion-cli digest prints it) or 'sasl:monitor'");

        String scheme = readAccess.substring(0, colon);
        String id = readAccess.substring(colon + 1);

        if (scheme.equals("digest") && !id.matches("[^:]+:[A-Za-z0-9+/]{27}="))
            throw new IllegalArgumentException("zkReadAccess: a digest id is 'digest:user:<base64 SHA-1 of user:password>'"
                + ", not the password itself; zkion-cli digest prints it");

        return new Id(scheme, id);
    }

    /** @return ZooKeeper's digest id of {@code user:password}: {@code user:base64(sha1(user:password))}. */
    public static String digest(String userPassword) {
        int colon = userPassword.indexOf(':');

        if (colon <= 0)
            throw new IllegalArgumentException("credentials must be 'user:password'");

        try {
            byte[] sha1 = MessageDigest.getInstance("SHA1").digest(userPassword.getBytes(StandardCharsets.UTF_8));

            return userPassword.substring(0, colon) + ":" + Base64.getEncoder().encodeToString(sha1);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
