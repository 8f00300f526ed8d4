package io.zkion.discovery.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.ion.IonText;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The live discovery state of a cluster as readable Ion text: the cluster state, every alive node with its
 * formats and ack, the pending custom messages and the untrimmed event log. Read-only.
 * <p>
 * Run: {@code java -cp <zkion jars> io.zkion.discovery.tools.IonStateDump <zkConnectionString> [zkRootPath]}
 */
public final class IonStateDump {
    private final ZkStore store;
    private final ZkPaths paths;
    private final IonText text = new IonText(new IonEventFormat(StreamingZip.defaults()));
    private final IonText text2 = new IonText(new IonEventFormat(StreamingZip.defaults(), FormatId.ION_2));

    public IonStateDump(CuratorFramework client, String root) {
        this.paths = new ZkPaths(root);
        this.store = new ZkStore(client, paths, Integer.MAX_VALUE);
    }

    /** @return The dump; znodes that are not ours or not Ion are shown as a note, never skipped silently. */
    public String dump() throws Exception {
        StringBuilder sb = new StringBuilder();

        sb.append("// ZkIon discovery state under ").append(paths.root).append('\n');
        node(sb, paths.state);
        node(sb, paths.gate);

        // Not parts/: pieces of the payloads shown here, which their manifests name.
        for (String dir : paths.withManifests()) {
            List<String> names = new ArrayList<>(store.children(dir));

            Collections.sort(names);
            sb.append("\n// ").append(dir).append(": ").append(names.size()).append(" node(s)\n");

            for (String n : names) {
                if (dir.equals(paths.nodes))
                    size(sb, dir + "/" + n);
                else
                    node(sb, dir + "/" + n);
            }
        }

        return sb.toString();
    }

    /** A data znode holds two JDK-serialized blobs, kilobytes each per node: its size says enough. */
    private void size(StringBuilder sb, String path) throws Exception {
        byte[] data = store.read(path);

        sb.append("// ").append(path).append(data == null ? ": gone" : " (" + data.length + " bytes: the node and its"
            + " joining data, JDK-serialized)").append('\n');
    }

    private void node(StringBuilder sb, String path) throws Exception {
        byte[] data;

        try {
            data = store.read(path);
        }
        catch (RuntimeException e) {
            sb.append("// ").append(path).append(": unreadable: ").append(e.getMessage()).append('\n');
            return;
        }

        if (data == null || data.length == 0) {
            sb.append("// ").append(path).append(data == null ? ": gone\n" : ": empty\n");
            return;
        }

        sb.append("// ").append(path).append(" (").append(data.length).append(" bytes)\n");

        try {
            FormatId f = EventFormats.detect(data, path);

            if (f == FormatId.ION_1)
                sb.append(text.render(data, path)).append('\n');
            else if (f == FormatId.ION_2)
                sb.append(text2.render(data, path)).append('\n');
            else
                sb.append("// in format ").append(f.wireName()).append(", JDK-serialized: not shown as text\n");
        }
        catch (CodecException e) {
            sb.append("// ").append(e.getMessage()).append('\n');
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: IonStateDump <zkConnectionString> [zkRootPath, default /apacheIgnite]");
            System.exit(2);
        }

        try (CuratorFramework c = CuratorFrameworkFactory.newClient(args[0], new ExponentialBackoffRetry(200, 3))) {
            c.start();
            System.out.println(new IonStateDump(c, args.length > 1 ? args[1] : "/apacheIgnite").dump());
        }
    }
}
