package io.zkion.discovery.compat;

import io.zkion.discovery.ZkIonDiscoverySpi;

/** The SPI Ignite's tests run on, in the 2.17 line: the shipped class, which implements Ignite's test hook itself. */
final class TestSpis {
    private TestSpis() {
    }

    static ZkIonDiscoverySpi create() {
        return new ZkIonDiscoverySpi();
    }
}
