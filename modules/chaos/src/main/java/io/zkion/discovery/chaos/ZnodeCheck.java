package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.codec.msg.ClusterState;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * What the cluster left in ZooKeeper after its last node stopped. The layout's empty directories may stay (the
 * SPI keeps them, as the stock one does); anything else is left behind: {@code state}, or any znode in a directory.
 */
final class ZnodeCheck {
    private ZnodeCheck() {
    }

    /** @return The paths left behind, waiting up to {@code waitMs} for ephemeral znodes of closed sessions to go. */
    static List<String> leftBehind(String connect, String root, long waitMs) throws Exception {
        try (CuratorFramework zkc = connect(connect)) {
            long end = System.currentTimeMillis() + waitMs;
            List<String> left;

            do {
                left = list(zkc, root);

                if (left.isEmpty())
                    break;

                Thread.sleep(500);
            }
            while (System.currentTimeMillis() < end);

            return left;
        }
    }

    /** @return The log epoch the cluster state names: how often the log rolled over. */
    static long logEpoch(String connect, String root) throws Exception {
        return state(connect, root).logEpoch;
    }

    /** @return The format the cluster writes, as {@code gate} names it for members and {@code state} records it. */
    static String writeFormat(String connect, String root) throws Exception {
        ControlCodec codec = new ControlCodec(StreamingZip.defaults());

        try (CuratorFramework zkc = connect(connect)) {
            String gate = codec.decodeGate(zkc.getData().forPath(root + "/gate"), root + "/gate").format;
            String state = codec.decodeState(zkc.getData().forPath(root + "/state"), root + "/state").format;

            return gate.equals(state) ? gate : "gate " + gate + ", state " + state;
        }
    }

    private static ClusterState state(String connect, String root) throws Exception {
        try (CuratorFramework zkc = connect(connect)) {
            return new ControlCodec(StreamingZip.defaults()).decodeState(zkc.getData().forPath(root + "/state"),
                root + "/state");
        }
    }

    private static CuratorFramework connect(String connect) throws InterruptedException {
        CuratorFramework zkc = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(10, 500));

        zkc.start();
        zkc.blockUntilConnected();

        return zkc;
    }

    private static List<String> list(CuratorFramework zkc, String root) throws Exception {
        List<String> left = new ArrayList<>();

        if (zkc.checkExists().forPath(root) == null)
            return left;

        for (String child : zkc.getChildren().forPath(root)) {
            String dir = root + '/' + child;

            if (child.equals("state"))
                left.add(dir);

            for (String grand : zkc.getChildren().forPath(dir))
                left.add(dir + '/' + grand);
        }

        return left;
    }
}
