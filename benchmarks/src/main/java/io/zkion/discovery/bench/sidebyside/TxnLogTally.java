package io.zkion.discovery.bench.sidebyside;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.jute.Record;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.ByteBufferInputStream;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog;
import org.apache.zookeeper.txn.CreateContainerTxn;
import org.apache.zookeeper.txn.CreateTTLTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.Txn;

/**
 * Sums a ZooKeeper server's transaction log by znode directory: how many creates, setDatas and deletes each got, and
 * the bytes of data written. Paths are shortened to two levels under the root, with ids and sequence numbers masked,
 * so that one directory's znodes add up.
 */
final class TxnLogTally {
    /** "create /dir/sub" -> sums. */
    private final Map<String, long[]> sums = new TreeMap<>();
    private final String root;
    private long txns;

    private TxnLogTally(String root) {
        this.root = root;
    }

    /**
     * @return The zxid of a marker znode created now: the transactions after it came later. Two markers bound the
     *      window {@link #read} sums; created from a session of their own, outside what the clients measured send.
     */
    static long marker(String connect) throws Exception {
        try (CuratorFramework c = Bounds.curator(connect)) {
            String p = c.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath("/txn-log-marker-");

            return c.checkExists().forPath(p).getCzxid();
        }
    }

    /** Reads {@code zk}'s transactions with a zxid strictly between {@code from} and {@code to}. */
    static TxnLogTally read(TestingServer zk, long from, long to, String root) throws IOException {
        return read(new File(zk.getTempDirectory(), "version-2"), from, to, root);
    }

    /** Reads the transactions with a zxid strictly between {@code from} and {@code to}. */
    private static TxnLogTally read(File logDir, long from, long to, String root) throws IOException {
        TxnLogTally t = new TxnLogTally(root);
        FileTxnLog log = new FileTxnLog(logDir);

        try (TxnLog.TxnIterator it = log.read(from + 1)) {
            while (it.getHeader() != null && it.getHeader().getZxid() < to) {
                t.txns++;
                t.add(it.getHeader().getType(), it.getTxn());

                if (!it.next())
                    break;
            }
        }

        return t;
    }

    private void add(int type, Record txn) throws IOException {
        if (txn instanceof MultiTxn) {
            for (Txn op : ((MultiTxn)txn).getTxns())
                add(op.getType(), decode(op));
        }
        else if (txn instanceof CreateTxn)
            count("create", ((CreateTxn)txn).getPath(), ((CreateTxn)txn).getData().length);
        else if (txn instanceof CreateTTLTxn)
            count("create", ((CreateTTLTxn)txn).getPath(), ((CreateTTLTxn)txn).getData().length);
        else if (txn instanceof CreateContainerTxn)
            count("create", ((CreateContainerTxn)txn).getPath(), ((CreateContainerTxn)txn).getData().length);
        else if (txn instanceof SetDataTxn)
            count("setData", ((SetDataTxn)txn).getPath(), ((SetDataTxn)txn).getData().length);
        else if (txn instanceof DeleteTxn)
            count("delete", ((DeleteTxn)txn).getPath(), 0);
    }

    private static Record decode(Txn op) throws IOException {
        Record r;

        switch (op.getType()) {
            case OpCode.create:
            case OpCode.create2:
                r = new CreateTxn();
                break;
            case OpCode.createTTL:
                r = new CreateTTLTxn();
                break;
            case OpCode.createContainer:
                r = new CreateContainerTxn();
                break;
            case OpCode.setData:
                r = new SetDataTxn();
                break;
            case OpCode.delete:
            case OpCode.deleteContainer:
                r = new DeleteTxn();
                break;
            default:
                return null; // A check or an error: nothing written.
        }

        ByteBufferInputStream.byteBuffer2Record(ByteBuffer.wrap(op.getData()), r);

        return r;
    }

    private void count(String op, String path, int bytes) {
        long[] s = sums.computeIfAbsent(op + " " + directory(path), k -> new long[2]);

        s[0]++;
        s[1] += bytes;
    }

    private String directory(String path) {
        return directory(path, root);
    }

    /** @return {@code path} below {@code root}, two levels at most, with ids and sequence numbers masked. */
    static String directory(String path, String root) {
        String p = path.startsWith(root) ? path.substring(root.length()) : path;
        String[] parts = p.split("/");
        StringBuilder b = new StringBuilder();

        for (int i = 1, n = 0; i < parts.length && n < 2; i++, n++)
            b.append('/').append(mask(parts[i]));

        return b.length() == 0 ? "/" : b.toString();
    }

    private static String mask(String name) {
        return name.replaceAll("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "<id>")
            .replaceAll("^[0-9]+$", "#").replaceAll("[0-9]{4,}", "#");
    }

    /** @return The bytes of data written, over every operation read. */
    long totalBytes() {
        long total = 0;

        for (long[] v : sums.values())
            total += v[1];

        return total;
    }

    String markdown(String title, int joins) {
        return markdown(title, joins, "join");
    }

    /** @return The sums as a markdown table, each divided by {@code n} (of {@code unit}: joins, cache creates). */
    String markdown(String title, int n, String unit) {
        int joins = n;

        StringBuilder b = new StringBuilder("## ").append(title).append("\n\n")
            .append(txns).append(" transactions.\n\n")
            .append("| operation and directory | operations per ").append(unit).append(" | bytes per ").append(unit)
            .append(" |\n| --- | ---: | ---: |\n");
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            b.append("| `").append(e.getKey()).append("` | ").append(String.format("%.1f", e.getValue()[0] / (double)joins))
                .append(" | ").append(String.format("%,.0f", e.getValue()[1] / (double)joins)).append(" |\n");
        }

        return b.append("| all | | ").append(String.format("%,.0f", totalBytes() / (double)joins)).append(" |\n").toString();
    }
}
