package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.List;
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
        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(10, 500))) {
            zkc.start();
            zkc.blockUntilConnected();

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
        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(10, 500))) {
            zkc.start();
            zkc.blockUntilConnected();

            return new ControlCodec(StreamingZip.defaults()).decodeState(zkc.getData().forPath(root + "/state"),
                root + "/state").logEpoch;
        }
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
