package io.zkion.discovery.examples;

import io.zkion.discovery.ZkIonDiscoverySpi;
import org.apache.curator.test.TestingServer;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The shipped Spring XML configuration starts a working node on ZkIonDiscoverySpi. */
public class SpringConfigTest {
    @Test(timeout = 120_000) public void shippedConfigStartsAClusterOfTwo() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            System.setProperty("zkion.zk", zk.getConnectString());
            System.setProperty("zkion.root", "/spring-test");

            try {
                System.setProperty("zkion.name", "xml-1");
                Ignite a = Ignition.start("config/zkion-server.xml");

                System.setProperty("zkion.name", "xml-2");
                Ignite b = Ignition.start("config/zkion-server.xml");

                ZkIonDiscoverySpi spi = (ZkIonDiscoverySpi)a.configuration().getDiscoverySpi();

                assertEquals(zk.getConnectString(), spi.getZkConnectionString());
                assertEquals("/spring-test", spi.getZkRootPath());
                assertTrue(b.cluster().nodes().size() == 2 && a.cluster().nodes().size() == 2);
            }
            finally {
                Ignition.stopAll(true);
                System.clearProperty("zkion.zk");
                System.clearProperty("zkion.root");
                System.clearProperty("zkion.name");
            }
        }
    }
}
