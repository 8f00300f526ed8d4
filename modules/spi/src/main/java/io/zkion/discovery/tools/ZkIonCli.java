package io.zkion.discovery.tools;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import io.zkion.discovery.config.BuildInfo;
import io.zkion.discovery.config.ZnodeAcls;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code zkion-cli}: the live discovery state of a ZkIon cluster, from ZooKeeper alone. Runs with the {@code -all}
 * jar and nothing else on its class path; reads, and writes only what {@code evict} asks for: one alive znode gone.
 */
@Command(name = "zkion-cli", mixinStandardHelpOptions = true, versionProvider = ZkIonCli.Version.class,
    description = "Shows the live discovery state of a ZkIon Discovery cluster in ZooKeeper.",
    subcommands = {ZkIonCli.Status.class, ZkIonCli.Dump.class, ZkIonCli.Evict.class, ZkIonCli.Digest.class})
public final class ZkIonCli implements Callable<Integer> {
    /** {@code --version}: the release, and the Ignite line the jar is built for. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() {
            return new String[] {"zkion-cli: " + BuildInfo.describe()};
        }
    }

    /** Where and how to connect, shared by the commands. */
    static final class Connection {
        @Option(names = {"-z", "--zk"}, required = true, description = "ZooKeeper connection string, host:port,...")
        String zk;

        @Option(names = {"-r", "--root"}, defaultValue = "/apacheIgnite", description = "zkRootPath (default: ${DEFAULT-VALUE})")
        String root;

        @Option(names = "--auth", description = "digest credentials, user:password (prefer --auth-file)")
        String auth;

        @Option(names = "--auth-file", description = "a file whose first line is user:password")
        String authFile;

        @Option(names = "--connect-timeout", defaultValue = "10000", description = "ms to wait for ZooKeeper (default: ${DEFAULT-VALUE})")
        int connectTimeout;

        /** What a command does with the connection; its exit code. */
        interface Work {
            int with(CuratorFramework c) throws Exception;
        }

        /** @return {@code work}'s exit code, run on a connection closed after it. */
        int run(Work work) throws Exception {
            try (CuratorFramework c = connect()) {
                return work.with(c);
            }
        }

        CuratorFramework connect() throws Exception {
            ZkPaths.validateRoot(root);

            CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(zk)
                .connectionTimeoutMs(connectTimeout).sessionTimeoutMs(Math.max(connectTimeout, 10_000))
                .retryPolicy(new RetryOneTime(200));
            String creds = credentials();

            if (creds != null)
                b.authorization("digest", creds.getBytes(StandardCharsets.UTF_8));

            CuratorFramework c = b.build();

            c.start();

            if (!c.blockUntilConnected(connectTimeout, TimeUnit.MILLISECONDS)) {
                c.close();
                throw new ExitCode.ZooKeeperUnreachable("No ZooKeeper server answered at " + zk + " within "
                    + connectTimeout + " ms");
            }

            return c;
        }

        private String credentials() throws Exception {
            return authFile == null ? auth : fromFile(authFile);
        }

        /** @return The {@code user:password} on the first line of {@code authFile}. */
        static String fromFile(String authFile) throws Exception {
            List<String> lines = Files.readAllLines(Paths.get(authFile), StandardCharsets.UTF_8);

            if (lines.isEmpty() || !lines.get(0).contains(":"))
                throw new IllegalArgumentException("--auth-file " + authFile + " does not start with a user:password line");

            return lines.get(0).trim();
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
        description = "Coordinator, topology version, alive nodes, pending joins, log entries and their age, slowest ack,"
            + " gate, format. Exit code 0 healthy, 1 unhealthy, 2 no cluster under the root, 3 ZooKeeper unreachable,"
            + " 4 authentication refused, 5 another error, 64 usage.")
    static final class Status implements Callable<Integer> {
        @Mixin Connection conn;

        @Option(names = "--json", description = "one JSON object instead of text, errors too")
        boolean json;

        @Option(names = "--expect-servers", defaultValue = "0",
            description = "unhealthy with fewer servers in the cluster (default: any number above none)")
        int expectServers;

        @Option(names = "--join-timeout", defaultValue = "60000",
            description = "ms a join may wait before it counts as stuck, and the cluster unhealthy; set it to the nodes'"
                + " joinTimeout when they have one (default: ${DEFAULT-VALUE})")
        long joinTimeout;

        @Override public Integer call() throws Exception {
            return conn.run(c -> {
                ClusterStatus st = ClusterStatus.read(new ZkStore(c, new ZkPaths(conn.root), Integer.MAX_VALUE),
                    new ClusterStatus.Expectations(expectServers, joinTimeout), System.currentTimeMillis());

                System.out.println(json ? StatusRendering.json(st) : StatusRendering.text(st));

                return st.exitCode();
            });
        }
    }

    @Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Every znode of the cluster, decoded: pretty Ion text, or JSON with --json.")
    static final class Dump implements Callable<Integer> {
        @Mixin Connection conn;

        @Option(names = "--json", description = "one JSON object, from znode path to content")
        boolean json;

        @Override public Integer call() throws Exception {
            return conn.run(c -> {
                System.out.print(new IonStateDump(c, conn.root, json).dump());

                return 0;
            });
        }
    }

    @Command(name = "evict", mixinStandardHelpOptions = true,
        description = "Forces a node out, server or client: removes its alive znode, and the coordinator fails it at one"
            + " topology version everywhere; a server then stops itself, a client rejoins. For a hung node that still"
            + " holds its ZooKeeper session. Needs the cluster's own credentials: a read-only identity is refused (4).")
    static final class Evict implements Callable<Integer> {
        @Mixin Connection conn;

        @Option(names = "--node", required = true, description = "the node's id, as status shows it")
        UUID node;

        @Override public Integer call() throws Exception {
            return conn.run(c -> {
                String path = new ZkPaths(conn.root).alive(node);

                try {
                    c.delete().forPath(path);
                }
                catch (KeeperException.NoNodeException e) {
                    System.err.println("zkion-cli: no node " + node + " is alive under " + conn.root);
                    return ExitCode.ERROR;
                }

                System.out.println("evicted " + node + ": the coordinator fails it; a server stops itself when it sees"
                    + " that, a client rejoins");

                return ExitCode.HEALTHY;
            });
        }
    }

    @Command(name = "digest", mixinStandardHelpOptions = true,
        description = "Prints the ZooKeeper digest id of user:password, for the SPI's zkReadAccess: digest:user:<hash>."
            + " The password is read from a file, so that it is not on a command line.")
    static final class Digest implements Callable<Integer> {
        @Option(names = "--auth-file", required = true, description = "a file whose first line is user:password")
        String authFile;

        @Override public Integer call() throws Exception {
            System.out.println("digest:" + ZnodeAcls.digest(Connection.fromFile(authFile)));

            return 0;
        }
    }

    @Override public Integer call() {
        CommandLine.usage(this, System.out);

        return ExitCode.USAGE;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** @return The exit code of the command {@code args} name, run; what it prints goes to System.out and err. */
    public static int execute(String[] args) {
        CommandLine cli = new CommandLine(new ZkIonCli());
        boolean json = Arrays.asList(args).contains("--json");

        // A failure is one line naming what went wrong (one JSON object with --json), with its own exit code.
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> fail(ExitCode.of(e), String.valueOf(e.getMessage()), json));
        cli.setParameterExceptionHandler((e, a) -> {
            if (!json) {
                e.getCommandLine().getErr().println("zkion-cli: " + e.getMessage());
                e.getCommandLine().usage(e.getCommandLine().getErr());
            }

            return json ? fail(ExitCode.USAGE, e.getMessage(), true) : ExitCode.USAGE;
        });

        return cli.execute(args);
    }

    private static int fail(int code, String message, boolean json) {
        if (json)
            System.out.println(ExitCode.json(code, message));
        else
            System.err.println("zkion-cli: " + message);

        return code;
    }
}
