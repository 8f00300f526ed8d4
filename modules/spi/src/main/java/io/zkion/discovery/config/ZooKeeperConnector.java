package io.zkion.discovery.config;

import io.zkion.discovery.internal.NodeThreads;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Opens the Curator client a node runs on: the session timeout, retries, a bound on every request, digest
 * credentials, creator-only ACLs with them or with a SASL login, and thread names that tell the nodes of one JVM apart. Fails with a message
 * that names what to change when ZooKeeper cannot be reached.
 */
public final class ZooKeeperConnector {
    /** How long a close waits for ZooKeeper to end the session. */
    private static final long CLOSE_WAIT_MS = 10_000;

    private final String connectionString;
    private final long sessionTimeout;
    private final String digestAuth;
    private final String instanceName;
    private final IgniteLogger log;

    /** The ACLs of what this node creates when it authenticates: creator-only, and maybe read for a monitor. */
    private ZnodeAcls acls = new ZnodeAcls("/", null);

    /** ZooKeeper client properties for this client only (TLS, SASL), over the system properties. */
    private Properties clientProperties = new Properties();

    /** What the node says as it starts, set once connected. */
    private volatile StartReport report;

    /** Set once the caller gave up: a connection made after it is closed, and no second one is made. */
    private volatile boolean cancelled;

    /**
     * @param digestAuth {@code user:password}, or null; never logged.
     * @param instanceName Ignite's instance name, for thread names; may be null.
     */
    public ZooKeeperConnector(String connectionString, long sessionTimeout, String digestAuth, String instanceName,
        IgniteLogger log) {
        this.connectionString = connectionString;
        this.sessionTimeout = sessionTimeout;
        this.digestAuth = digestAuth;
        this.instanceName = instanceName == null ? "" : instanceName;
        this.log = log;
    }

    /**
     * Connects on a thread of its own while the calling thread only waits. Ignite stops a node that is still starting
     * by interrupting its starter thread once, and ZooKeeper's client clears an interrupt when it closes a connection
     * (its close waits for the server's reply and drops the InterruptedException): on the starter thread, a close
     * here would lose Ignite's stop, and the start would go on to wait for its join for good.
     *
     * @return A started client with a live session.
     * @throws IgniteSpiException If ZooKeeper cannot be reached, or the calling thread is interrupted (it stays so).
     */
    public CuratorFramework connect() {
        CompletableFuture<CuratorFramework> made = new CompletableFuture<>();
        Thread t = NodeThreads.daemon(() -> {
            try {
                CuratorFramework c = connectGranted();

                // Said here, off the starter thread: asking the servers their version takes a round trip or a bound.
                report = StartReport.ask(connectionString);
                report.warnings(c.getZookeeperClient().getZooKeeper().getSessionTimeout()).forEach(log::warning);
                made.complete(c);
            }
            catch (Throwable e) {
                made.completeExceptionally(e);
            }
        }, "zkion-connect", instanceName);

        t.start();

        try {
            return made.get();
        }
        catch (InterruptedException e) {
            cancelled = true;
            t.interrupt();
            made.thenAccept(c -> close(c, instanceName)); // Made after all: closed at once.
            Thread.currentThread().interrupt();

            throw new IgniteSpiException("Interrupted while connecting to ZooKeeper (the node is being stopped)", e);
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof IgniteSpiException)
                throw (IgniteSpiException)e.getCause();

            throw new IgniteSpiException("ZkIonDiscoverySpi: failed to connect to ZooKeeper: " + e.getCause(), e.getCause());
        }
    }

    /** Sets ZooKeeper client properties for this client only, such as TLS's: they win over the system properties. */
    public ZooKeeperConnector clientProperties(Properties p) {
        clientProperties = p == null ? new Properties() : p;

        return this;
    }

    /** Gives {@code readAccess} ({@code scheme:id}, or null) read on the znodes under {@code root} this node creates. */
    public ZooKeeperConnector readAccess(String root, String readAccess) {
        try {
            acls = new ZnodeAcls(root, readAccess);
        }
        catch (IllegalArgumentException e) {
            throw new IgniteSpiException("ZkIonDiscoverySpi: " + e.getMessage());
        }

        return this;
    }

    /** @return What the node says as it starts, known once {@link #connect()} returned. */
    public StartReport report() {
        return report;
    }

    /**
     * ZooKeeper grants a session timeout within the servers' {@code minSessionTimeout} and {@code maxSessionTimeout}
     * (2 and 20 ticks by default), whatever was asked. The stock SPI runs with what is granted, and so does this one:
     * when the grant differs, it says so once and connects again asking for the granted value, so that every timing
     * derived from the session timeout (request and connection timeouts here, waits in the engine) uses it.
     *
     * @return A started client with a live session.
     */
    private CuratorFramework connectGranted() {
        CuratorFramework c = connect(sessionTimeout);
        int granted;

        try {
            granted = c.getZookeeperClient().getZooKeeper().getSessionTimeout();
        }
        catch (Exception e) {
            close(c, instanceName);
            throw new IgniteSpiException("ZkIonDiscoverySpi: failed to connect to ZooKeeper: " + e, e);
        }

        if (granted == sessionTimeout)
            return c;

        log.warning("ZooKeeper granted a session timeout of " + granted + " ms where sessionTimeout asked for "
            + sessionTimeout + " ms: the servers' " + (granted < sessionTimeout
            ? "maxSessionTimeout (default 20 x tickTime)" : "minSessionTimeout (default 2 x tickTime)")
            + " bounds it. Running with " + granted + " ms; set sessionTimeout within the servers' bounds, or change "
            + "them, to silence this");

        close(c, instanceName);

        if (cancelled)
            throw new IgniteSpiException("Stopped while connecting to ZooKeeper");

        return connect(granted);
    }

    /** Whether the znodes this node creates are creator-only: it authenticates with a digest or with SASL. */
    private boolean creatorOnly;

    /** @return Whether the znodes this node creates are creator-only, as {@link #connect} found. */
    public boolean creatorOnly() {
        return creatorOnly;
    }

    private CuratorFramework connect(long sessionTimeout) {
        ZKClientConfig cfg = clientConfig(sessionTimeout);
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
            .connectString(connectionString)
            .sessionTimeoutMs((int)sessionTimeout)
            .connectionTimeoutMs((int)Math.min(sessionTimeout, 15_000))
            .retryPolicy(new ExponentialBackoffRetry(100, 10, 2_000))
            .zkClientConfig(cfg)
            .threadFactory(threads())
            .runSafeService(runSafeService())
            .zookeeperFactory(new CurrentHandleEvents());

        noSimulatedExpiration(b);

        if (digestAuth != null)
            b.authorization("digest", digestAuth.getBytes(StandardCharsets.UTF_8));

        // Creator-only for the identity this session authenticates as: the digest's, or the SASL login's.
        creatorOnly = digestAuth != null || SaslLogin.configured(cfg);

        if (creatorOnly)
            b.aclProvider(acls);

        CuratorFramework c = b.build();

        c.start();

        long wait = Math.max(sessionTimeout, 10_000);

        try {
            if (!c.blockUntilConnected((int)wait, TimeUnit.MILLISECONDS)) {
                close(c, instanceName);
                throw new IgniteSpiException("ZkIonDiscoverySpi: cannot connect to ZooKeeper at '" + connectionString
                    + "' within " + wait + " ms: check zkConnectionString and that the servers are up");
            }

        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close(c, instanceName);
            throw new IgniteSpiException("Interrupted while connecting to ZooKeeper", e);
        }
        catch (IgniteSpiException e) {
            throw e;
        }
        catch (Exception e) {
            close(c, instanceName);
            throw new IgniteSpiException("ZkIonDiscoverySpi: failed to connect to ZooKeeper: " + e, e);
        }

        return c;
    }

    /**
     * By default Curator declares the session lost a session timeout into a suspension, on its own clock, and ends
     * it. But an ensemble without quorum expires no session: that would turn every quorum outage into the loss of
     * every node. The engine's outage guard decides what a node does meanwhile, so Curator must not simulate.
     * <p>
     * The percent is set to its largest value, which puts Curator's own deadline about 248 days into a suspension for
     * each second of the session timeout (some 7 years at 10 s).
     * Not to 0, which Curator also reads as "never": with 0, its connection-state thread waits a session timeout less
     * the time suspended, which turns negative once a suspension outlasts the session, and the thread then spins a
     * core until the connection returns (found at 1,000 simulated members, whose spinning kept ZooKeeper from serving
     * again after a quorum outage; {@code ZooKeeperConnectorOutageTest}). The builder's setter refuses both values, so
     * the field is set. The 5.9.0 the jar relocates multiplies it by the session timeout in a long; releases before
     * 2025 did so in an int, which this value would overflow.
     */
    private void noSimulatedExpiration(CuratorFrameworkFactory.Builder b) {
        try {
            Field f = CuratorFrameworkFactory.Builder.class.getDeclaredField("simulatedSessionExpirationPercent");

            f.setAccessible(true);
            f.setInt(b, Integer.MAX_VALUE);
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            log.warning("Curator's simulated session expiration could not be turned off (" + e + "): a ZooKeeper"
                + " outage longer than the session timeout ends every node's session, as with the stock SPI");
        }
    }

    /**
     * ZooKeeper's client waits forever for a reply by default; a request the server never answers would then stall
     * discovery for good. Bounded by the session timeout, it fails and the discovery thread retries.
     */
    private ZKClientConfig clientConfig(long sessionTimeout) {
        ZKClientConfig cfg = new ZKClientConfig(); // Reads the system properties: this node's own, set next, win.

        for (String k : clientProperties.stringPropertyNames()) {
            String v = clientProperties.getProperty(k);

            // ZooKeeper is relocated in the -all jar: its Netty socket is named as it is here, in either jar.
            if (k.equals(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET) && v.endsWith(".ClientCnxnSocketNetty"))
                v = ClientCnxnSocketNetty.class.getName();

            cfg.setProperty(k, v);
        }

        cfg.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Long.toString(sessionTimeout));

        return cfg;
    }

    /** @return {@code p} as text, the value of every key that names a password masked. */
    public static String shown(Properties p) {
        StringBuilder sb = new StringBuilder("{");

        for (String k : new TreeSet<>(p.stringPropertyNames())) {
            sb.append(sb.length() == 1 ? "" : ", ").append(k).append('=')
                .append(k.toLowerCase(Locale.ROOT).contains("password") ? "****" : p.getProperty(k));
        }

        return sb.append('}').toString();
    }

    /**
     * Closes {@code c} on a thread of its own and waits for that, at most {@link #CLOSE_WAIT_MS}, an interrupt
     * notwithstanding (it is kept). ZooKeeper's client closes its session only if the closing thread is not
     * interrupted: otherwise it drops the InterruptedException and the connection without the server's reply, and the
     * session, with this node's ephemeral znodes, lives on for a whole session timeout.
     */
    public static void close(CuratorFramework c, String instanceName) {
        Thread t = NodeThreads.daemon(c::close, "zkion-close", instanceName);
        boolean interrupted = false;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);

        t.start();

        while (t.isAlive() && System.nanoTime() < end) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            }
            catch (InterruptedException e) {
                interrupted = true;
            }
        }

        if (interrupted)
            Thread.currentThread().interrupt();
    }

    /**
     * Curator never shuts down the executor it makes for its watcher callbacks' notifications, so every client it
     * closes leaves an idle thread behind for good: this one's thread ends a second after its last task.
     */
    private Executor runSafeService() {
        ThreadPoolExecutor e = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads());

        e.allowCoreThreadTimeOut(true);

        return e;
    }

    /** Curator's threads named the way Ignite names a node's threads ({@code name-#n%instance%}): dumps tell nodes apart. */
    private ThreadFactory threads() {
        AtomicInteger n = new AtomicInteger();

        return r -> NodeThreads.daemon(r, "zkion-curator-#" + n.incrementAndGet(), instanceName);
    }
}
