package io.zkion.discovery.config;

import javax.security.auth.login.Configuration;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Whether ZooKeeper's client will log in with SASL (Kerberos or DIGEST-MD5): SASL is on (the default) and the JAAS
 * configuration has the client's section ({@code Client} unless {@code zookeeper.sasl.clientconfig} names another).
 * The znodes are then creator-only for that identity, as with {@code zkDigestAuth}: every node of a cluster must
 * log in as the same one (with Kerberos, ZooKeeper's {@code kerberos.removeHostFromPrincipal} and
 * {@code kerberos.removeRealmFromPrincipal} map host principals to one).
 */
final class SaslLogin {
    private SaslLogin() {
    }

    static boolean configured(ZKClientConfig cfg) {
        if (!cfg.isSaslClientEnabled())
            return false;

        String section = cfg.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY,
            ZKClientConfig.LOGIN_CONTEXT_NAME_KEY_DEFAULT);

        try {
            return Configuration.getConfiguration().getAppConfigurationEntry(section) != null;
        }
        catch (SecurityException | IllegalArgumentException noJaasConfiguration) {
            return false;
        }
    }
}
