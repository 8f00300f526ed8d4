package io.zkion.discovery.zk;

/** A znode holds something this SPI did not write the way it reads it: missing parts, a bad checksum. */
public class ZkDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ZkDataException(String msg) {
        super(msg);
    }
}
