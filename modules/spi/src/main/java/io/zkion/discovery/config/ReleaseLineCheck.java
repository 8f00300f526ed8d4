package io.zkion.discovery.config;

import java.util.Map;
import java.util.TreeMap;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.msg.AliveInfo;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * What release lines the nodes alive under the root run, read from their alive records as a node starts: nodes of
 * another line are expected during a rolling upgrade between neighbouring releases, and otherwise mean a wrong root or
 * a wrong jar. Said once, as a warning; never a reason to refuse the start.
 */
public final class ReleaseLineCheck {
    private ReleaseLineCheck() {
    }

    /** @return The warning to log, or null when every readable alive node runs this node's release line. */
    public static String warning(CuratorFramework client, String root, ControlCodec codec, String ownRelease) {
        ZkPaths paths = new ZkPaths(root);
        Map<String, Integer> others = new TreeMap<>();

        try {
            for (String name : client.getChildren().forPath(paths.alive)) {
                byte[] data;

                try {
                    data = client.getData().forPath(paths.alive + "/" + name);
                }
                catch (KeeperException.NoNodeException gone) {
                    continue;
                }

                AliveInfo a;

                try {
                    a = codec.decodeAlive(data, paths.alive + "/" + name);
                }
                catch (CodecException unreadable) {
                    others.merge("unknown (a record this release cannot read: a newer one?)", 1, Integer::sum);
                    continue;
                }

                if (a.ack == 0 || (a.release == null && a.host != null))
                    continue; // Joining, or written for it by a coordinator: the node says its release once in.

                String line = a.release == null ? "before 0.2" : line(a.release);

                if (!line.equals(line(ownRelease)))
                    others.merge(line, 1, Integer::sum);
            }
        }
        catch (Exception e) {
            return null; // No cluster yet, or unreadable: the join says what is wrong, this only warns.
        }

        if (others.isEmpty())
            return null;

        StringBuilder sb = new StringBuilder("The root " + root + " holds nodes of another ZkIon release line than this"
            + " node's " + ownRelease + ":");

        others.forEach((line, n) -> sb.append(' ').append(n).append(" of line ").append(line).append(';'));

        return sb.append(" expected during a rolling upgrade between neighbouring releases, otherwise a wrong root or a"
            + " wrong jar (zkion-cli status shows each node's release)").toString();
    }

    /** @return The release line, major.minor: {@code 0.2} of {@code 0.2.0-SNAPSHOT}. */
    static String line(String release) {
        String[] p = release.split("[.-]");

        return p.length >= 2 ? p[0] + "." + p[1] : release;
    }
}
