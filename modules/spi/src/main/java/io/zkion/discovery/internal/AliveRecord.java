package io.zkion.discovery.internal;

import java.util.List;
import io.zkion.discovery.codec.msg.AliveInfo;

/** A node's alive record as the SPI writes it: what it reads and its ack, with who it is for an operator. */
public final class AliveRecord {
    private AliveRecord() {
    }

    /**
     * @param release The release of the node's jar, if the writer is that node; null when another node writes it.
     */
    public static AliveInfo of(ZkIonClusterNode n, List<String> formats, long ack, String release) {
        Object cid = n.consistentId();

        return new AliveInfo(n.isClient(), formats, ack, host(n), cid == null ? null : cid.toString(), n.order(),
            release);
    }

    /** @return The node's first host name, else its first address; null if it has neither. */
    private static String host(ZkIonClusterNode n) {
        for (String h : n.hostNames()) {
            if (h != null && !h.isEmpty())
                return h;
        }

        for (String a : n.addresses()) {
            if (a != null && !a.isEmpty())
                return a;
        }

        return null;
    }
}
