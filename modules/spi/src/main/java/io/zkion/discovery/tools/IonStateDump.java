package io.zkion.discovery.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.CuratorFramework;

/**
 * The live discovery state of a cluster, read-only: the cluster state, every alive node with its formats and ack,
 * the pending custom messages and the untrimmed event log, as pretty Ion text or as one JSON object. Znodes that are
 * not ours or not Ion are shown as a note, never skipped silently. {@code zkion-cli dump} runs it.
 */
public final class IonStateDump {
    private final ZkStore store;
    private final ZkPaths paths;
    private final IonRendering rendering;

    public IonStateDump(CuratorFramework client, String root) {
        this(client, root, false);
    }

    IonStateDump(CuratorFramework client, String root, boolean json) {
        this.paths = new ZkPaths(root);
        this.store = new ZkStore(client, paths, Integer.MAX_VALUE);
        this.rendering = json ? IonRendering.json() : IonRendering.ion();
    }

    /** @return The dump: Ion text with a comment per znode, or a JSON object from znode path to content. */
    public String dump() throws Exception {
        StringBuilder sb = new StringBuilder(rendering.json ? "{" + Json.string("root") + ":" + Json.string(paths.root)
            : "// ZkIon discovery state under " + paths.root + "\n");

        append(sb, paths.state);
        append(sb, paths.gate);

        // Not parts/: pieces of the payloads shown here, which their manifests name.
        for (String dir : paths.withManifests()) {
            List<String> names = new ArrayList<>(store.children(dir));

            Collections.sort(names);

            if (!rendering.json)
                sb.append("\n// ").append(dir).append(": ").append(names.size()).append(" node(s)\n");

            for (String n : names)
                append(sb, dir + "/" + n);
        }

        return sb.append(rendering.json ? "\n}\n" : "").toString();
    }

    private void append(StringBuilder sb, String path) throws Exception {
        String content = content(path);

        if (rendering.json)
            sb.append(",\n").append(Json.string(path)).append(':').append(content);
        else
            sb.append("// ").append(path).append(content.startsWith("//") ? " " : "\n").append(content).append('\n');
    }

    /** @return The znode's content rendered; a note (a JSON string, or an Ion comment) for what is not Ion. */
    private String content(String path) throws Exception {
        byte[] data;

        try {
            data = store.read(path);
        }
        catch (RuntimeException e) {
            return note("unreadable: " + e.getMessage());
        }
        catch (org.apache.zookeeper.KeeperException.NoAuthException e) {
            // A join request or payload part, which a read-only identity (zkReadAccess) may not read.
            return note("refused: these credentials may not read it");
        }

        if (data == null || data.length == 0)
            return note(data == null ? "gone" : "empty");

        try {
            FormatId f = EventFormats.detect(data, path);

            if (f != FormatId.ION_1 && f != FormatId.ION_2)
                return note("in format " + f.wireName() + ": " + IonRendering.describe(data));

            return rendering.render(new IonEventFormat(StreamingZip.defaults(), f).inflate(data, path), path);
        }
        catch (CodecException e) {
            return note(e.getMessage());
        }
    }

    private String note(String text) {
        return rendering.json ? Json.string(text) : "// " + text;
    }
}
