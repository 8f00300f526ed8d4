package io.zkion.discovery.bench.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import io.zkion.discovery.chaos.ZkEnsemble;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The scale run (issue 20): for each shape, a fresh 3-server ZooKeeper ensemble in processes of its own, ZkIon's
 * members in a few JVMs ({@link JvmLayout}), the measurements of {@link ShapeRun}, the floor of {@link FloorRun}; then
 * {@code <name>.json}, {@code <name>.md} and charts in the results directory.
 * <p>
 * Arguments: the results directory, the shapes ({@code 100,300,1000,100+900}), the messages timed per shape, and the
 * report's name ({@code scale}). JVM options for the member JVMs come from {@code -Dzkion.scale.jvmOpts};
 * {@code -Dzkion.scale.decodeOnce=true} is passed on to them ({@link DecodeOnce}).
 */
public final class ScaleRun {
    private ScaleRun() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]);
        List<Shape> shapes = Arrays.stream(args[1].split(",")).map(Shape::parse).collect(Collectors.toList());
        int messages = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        String name = args.length > 3 ? args[3] : "scale";

        System.exit(run(out, shapes, messages, name).isEmpty() ? 1 : 0);
    }

    /** @return One result per shape. */
    static List<Map<String, Object>> run(Path out, List<Shape> shapes, int messages, String name) throws Exception {
        Path logs = Files.createDirectories(out.resolve(name + "-logs"));
        String opens = System.getProperty("zkion.scale.jvmOpts", "");
        List<String> jvmOpts = new ArrayList<>(opens.isBlank() ? List.of() : Arrays.asList(opens.trim().split("\\s+")));

        if (DecodeOnce.ON)
            jvmOpts.add("-D" + DecodeOnce.PROPERTY + "=true");

        List<Map<String, Object>> results = new ArrayList<>();

        for (Shape shape : shapes) {
            Path dir = Files.createDirectories(logs.resolve(shape.servers + "-" + shape.clients));
            Path zkDir = Files.createDirectories(dir.resolve("zk"));
            ScaleSettings s = new ScaleSettings(System.getProperty("java.class.path"), jvmOpts, dir,
                Integer.getInteger("zkion.scale.sessionTimeout", 10_000), messages,
                Long.getLong("zkion.scale.stepTimeoutMs", 600_000L));

            try (ZkEnsemble zk = new ZkEnsemble(zkDir, s.classPath, 1024)) {
                zk.startAll();

                try (CuratorFramework admin = CuratorFrameworkFactory.newClient(zk.connectString(), 30_000, 15_000,
                    new ExponentialBackoffRetry(200, 10))) {
                    admin.start();
                    admin.blockUntilConnected();

                    long t0 = System.nanoTime();
                    Map<String, Object> r = new ShapeRun(shape, zk, admin, s).run();

                    r.put("runSeconds", (System.nanoTime() - t0) / 1_000_000_000L);
                    results.add(r);
                    System.out.println("[" + shape + "] " + r);
                    new ScaleReport(out, name).write(EarlierResults.merged(out.resolve(name + ".json"), results));
                }
            }
        }

        return results;
    }
}
