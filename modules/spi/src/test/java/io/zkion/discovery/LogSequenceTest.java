package io.zkion.discovery;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import io.zkion.discovery.zk.ZkDataException;
import io.zkion.discovery.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.retry.RetryOneTime;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.internal.IgniteEx;
import org.apache.zookeeper.Watcher;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * ZooKeeper's sequence counter under a parent is a signed int that only grows. A wrapped counter must stop a node
 * with a message, never repeat the log's order; and a cluster restarted from nothing counts from zero again, so that
 * only a cluster that runs past 2^31 entries without a full stop can reach the limit.
 */
public class LogSequenceTest extends ZkIonTestSupport {
    @Test public void aWrappedSequenceIsAnErrorThatSaysWhatToDo() {
        try {
            ZkPaths.sequence("e--000000005");
            fail("A negative sequence was taken");
        }
        catch (ZkDataException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("wrapped past 2^31") && e.getMessage().contains("e--000000005"));
        }
    }

    @Test(timeout = 120_000) public void aClusterStartedAfreshCountsItsLogFromZero() throws Exception {
        Ignite s1 = start("s1");

        for (int i = 0; i < 5; i++)
            ((IgniteEx)s1).context().discovery().sendCustomEvent(new CustomMessageTest.Ping("p" + i));

        Ignition.stop(s1.name(), true);
        nodes.remove(s1);

        try (CuratorFramework zkc = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
             PersistentWatcher w = new PersistentWatcher(zkc, root + "/log", true)) {
            List<String> created = new CopyOnWriteArrayList<>();

            zkc.start();
            w.getListenable().addListener(e -> {
                if (e.getType() == Watcher.Event.EventType.NodeCreated && e.getPath().startsWith(root + "/log/"))
                    created.add(e.getPath().substring(root.length() + 5));
            });
            w.start();

            start("s1");

            await("the founding entry seen", 10_000, () -> !created.isEmpty());
            assertEquals(created.toString(), "e-0000000000", created.get(0));
        }
    }
}
