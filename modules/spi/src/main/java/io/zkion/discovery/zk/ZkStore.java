package io.zkion.discovery.zk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.zip.CRC32;
import io.zkion.discovery.internal.TestSeam;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * Curator access for the SPI: reads and atomic writes of opaque bytes, with payloads over the request limit
 * split into parts. It knows paths and sizes, never what the bytes mean.
 * <p>
 * A large payload is written part by part first, each in its own request, and becomes visible only when the
 * caller commits the small manifest that names them: a {@code multi} is bounded by {@code jute.maxbuffer} too.
 */
public final class ZkStore {
    private final CuratorFramework client;
    private final ZkPaths paths;
    private final Leftovers leftovers;

    /**
     * Payloads up to this size go inline. A multi can carry two of them (a join writes its log entry and its
     * answer), so a quarter of the limit leaves the rest of the request room.
     */
    private final int inlineLimit;

    /** Size of one part: the limit less room for the request's own framing. */
    private final int partSize;

    private volatile ZkFaults faults = ZkFaults.NONE;

    /** @return The most bytes a value may have and still go inline in a create; more goes to parts. */
    public int inlineLimit() {
        return inlineLimit;
    }

    public ZkStore(CuratorFramework client, ZkPaths paths, int requestLimit) {
        this.client = client;
        this.paths = paths;
        this.inlineLimit = requestLimit / 4;
        this.partSize = requestLimit - 4096;
        this.leftovers = new Leftovers(this);
    }

    public CuratorFramework client() {
        return client;
    }

    public ZkPaths paths() {
        return paths;
    }

    /**
     * Creates the root, its directories and the gate holding {@code gate}, those of them not in {@code present}.
     *
     * @param present What {@link #rootChildren} found.
     */
    public void ensureLayout(Set<String> present, byte[] gate) throws Exception {
        faults.beforeLayout();

        // Only what the listing lacks: a create that finds its znode is still a write through the ensemble's leader,
        // ten for every node that starts (3,000 of a 300-member run's 9,419 transactions).
        createAbsent(present, null, paths.parents());
        createAbsent(present, gate, paths.gate);
    }

    /** @return The names under the root, with one read; none if there is no root yet. */
    public Set<String> rootChildren() throws Exception {
        try {
            return new HashSet<>(client.getChildren().forPath(paths.root));
        }
        catch (KeeperException.NoNodeException e) {
            return Collections.emptySet();
        }
    }

    /**
     * Creates those of {@code dirs}, children of the root, that a listing of the root lacks, as {@link #ensureLayout}
     * does: a create that finds its znode is a write.
     */
    public void createMissing(String... dirs) throws Exception {
        createAbsent(rootChildren(), null, dirs);
    }

    /** Creates those of {@code dirs}, children of the root, that are not in {@code present}, holding {@code data}. */
    private void createAbsent(Set<String> present, byte[] data, String... dirs) throws Exception {
        for (String dir : dirs) {
            if (!present.contains(ZKPaths.getNodeFromPath(dir)))
                createIfAbsent(dir, data);
        }
    }

    /** Creates {@code path} holding {@code data} (none if null) unless it exists, and its parents. */
    private void createIfAbsent(String path, byte[] data) throws Exception {
        try {
            if (data == null)
                client.create().creatingParentsIfNeeded().forPath(path);
            else
                client.create().creatingParentsIfNeeded().forPath(path, data);
        }
        catch (KeeperException.NodeExistsException ignored) {
            // Made by another node meanwhile.
        }
    }

    /** A write prepared for a multi: its ops, and what to undo if the multi never commits. */
    public static final class Prepared {
        public final List<CuratorOp> ops;

        /** The manifest committed in place of the data, or null when the data went inline. */
        public final byte[] manifest;

        final List<String> writtenParts;

        Prepared(List<CuratorOp> ops, byte[] manifest, List<String> writtenParts) {
            this.ops = ops;
            this.manifest = manifest;
            this.writtenParts = writtenParts;
        }
    }

    /**
     * Prepares the creation of {@code path} holding {@code data}. Small data is one create op; large data is
     * written to parts now (with the same persistence as {@code mode}) and committed by a manifest op.
     */
    public Prepared create(String path, byte[] data, CreateMode mode) throws Exception {
        if (data.length <= inlineLimit)
            return new Prepared(Collections.singletonList(createOp(path, data, mode)), null, Collections.emptyList());

        UUID blob = UUID.randomUUID();
        int count = (data.length + partSize - 1) / partSize;
        CRC32 crc = new CRC32();

        crc.update(data);

        PartsManifest m = new PartsManifest(blob, count, data.length, crc.getValue());
        CreateMode partMode = mode.isEphemeral() ? CreateMode.EPHEMERAL : CreateMode.PERSISTENT;
        List<String> written = new ArrayList<>(count);

        try {
            for (int k = 0; k < count; k++) {
                String p = m.partPath(paths, k);
                int from = k * partSize;

                client.create().withMode(partMode).forPath(p, Arrays.copyOfRange(data, from, Math.min(data.length, from + partSize)));
                written.add(p);
            }
        }
        catch (Exception e) {
            abandon(new Prepared(Collections.emptyList(), null, written));

            throw e;
        }

        byte[] manifest = m.encode();

        return new Prepared(Collections.singletonList(createOp(path, manifest, mode)), manifest, written);
    }

    private CuratorOp createOp(String path, byte[] data, CreateMode mode) throws Exception {
        return client.transactionOp().create().withMode(mode).forPath(path, data);
    }

    /**
     * Removes the parts of a write whose multi was never sent. Best effort: a leftover part is only garbage. Never
     * for a write whose multi was sent and failed: see {@link #commit}.
     */
    public void abandon(Prepared p) {
        for (String part : p.writtenParts) {
            try {
                client.delete().forPath(part);
            }
            catch (Exception ignored) {
                // Already gone, or ZooKeeper unreachable: a leftover part is garbage, never read.
            }
        }
    }

    /**
     * Runs ops in one multi.
     * <p>
     * The one policy for a multi that failed: its outcome is unclear, so nothing it wrote is undone. Curator re-sends
     * a request whose reply was lost (connection loss, or a session that expired meanwhile), so a multi that
     * ZooKeeper applied can come back as NodeExists or BadVersion from its own replay. Deleting the parts of such a
     * write would leave a committed znode naming parts that are gone; a part left by a multi that really failed is
     * only garbage, never read. Callers that must know the outcome read ZooKeeper again; parts are removed only
     * with the znode that names them, or by {@link #abandon} before any multi was sent.
     */
    public List<CuratorTransactionResult> commit(List<CuratorOp> ops) throws Exception {
        if (faults.failBeforeCommit(ops))
            throw KeeperException.create(KeeperException.Code.CONNECTIONLOSS);

        ZkFaults.raise(faults.refuseCommit(ops));

        List<CuratorTransactionResult> res = client.transaction().forOperations(ops);

        if (faults.loseReplyAfterCommit(ops))
            return client.transaction().forOperations(ops);

        return res;
    }

    /** @return What finds the znodes nobody needs any more: parts no manifest names, data of nodes not joining. */
    public Leftovers leftovers() {
        return leftovers;
    }

    /** Injects faults into this store's commits. */
    @TestSeam
    public void faults(ZkFaults faults) {
        this.faults = faults == null ? ZkFaults.NONE : faults;
    }

    /** A node's payload, and its raw data when that was a parts manifest (needed to delete the parts). */
    public static final class Payload {
        public final byte[] data;
        public final byte[] manifest;

        Payload(byte[] data, byte[] manifest) {
            this.data = data;
            this.manifest = manifest;
        }
    }

    /** @return The payload at {@code path}, or null if there is no such node. */
    public Payload readPayload(String path) throws Exception {
        return payloadOf(path, rawData(path));
    }

    /** @return What a node's raw data holds: itself, or the parts its manifest names; null for no node. */
    private Payload payloadOf(String path, byte[] raw) throws Exception {
        if (raw == null)
            return null;

        return PartsManifest.isManifest(raw) ? new Payload(assemble(path, PartsManifest.decode(raw, path)), raw)
            : new Payload(raw, null);
    }

    /**
     * Reads several payloads with their requests in flight together, a window at a time ({@link WindowedReads}), not
     * one round trip each: a joiner reads the data znode of every node in its snapshot.
     *
     * @return Payloads in the order of {@code paths}; null for a node that does not exist.
     */
    public Map<String, Payload> readPayloads(Collection<String> paths) throws Exception {
        Map<String, byte[]> raw = WindowedReads.forSession(client, faults).read(paths);
        Map<String, Payload> out = new LinkedHashMap<>();

        for (String p : paths)
            out.put(p, payloadOf(p, raw.get(p)));

        return out;
    }

    /** @return The payload at {@code path}, parts reassembled and verified; null if there is no such node. */
    public byte[] read(String path) throws Exception {
        return read(path, null);
    }

    /** Like {@link #read(String)}, filling {@code stat} with the node's. */
    public byte[] read(String path, Stat stat) throws Exception {
        Payload p = payloadOf(path, rawData(path, stat));

        return p == null ? null : p.data;
    }

    private byte[] assemble(String path, PartsManifest m) throws Exception {
        // Sized by the parts read, not by the manifest: a corrupt one may declare 2 GB over a few bytes of parts.
        List<byte[]> parts = new ArrayList<>();
        long pos = 0;

        for (int k = 0; k < m.count; k++) {
            byte[] part;

            try {
                part = client.getData().forPath(m.partPath(paths, k));
            }
            catch (KeeperException.NoNodeException e) {
                throw new ZkDataException(path + " names " + m.count + " parts, but part " + k + " ("
                    + m.partPath(paths, k) + ") is missing");
            }

            pos += part.length;

            if (pos > m.totalSize)
                throw new ZkDataException(path + ": its parts add up to more than the " + m.totalSize + " bytes it declares");

            parts.add(part);
        }

        if (pos != m.totalSize)
            throw new ZkDataException(path + ": its parts add up to " + pos + " bytes, it declares " + m.totalSize);

        byte[] out = new byte[m.totalSize];
        int at = 0;

        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }

        CRC32 crc = new CRC32();

        crc.update(out);

        if (crc.getValue() != m.crc32)
            throw new ZkDataException(path + ": the CRC32 of its " + m.count + " parts does not match its manifest");

        return out;
    }

    /** @return Ops that delete {@code path} and, if {@code data} (what it held) is a manifest, its parts. */
    public List<CuratorOp> deleteOps(String path, byte[] rawData) throws Exception {
        List<CuratorOp> ops = new ArrayList<>(1);

        ops.add(client.transactionOp().delete().forPath(path));

        List<String> parts;

        try {
            parts = partPaths(path, rawData);
        }
        catch (ZkDataException unreadable) {
            // A manifest of a newer version, or corrupt: the znode goes all the same, and the sweep of parts no
            // manifest names takes its parts later.
            parts = Collections.emptyList();
        }

        for (String part : parts)
            ops.add(client.transactionOp().delete().forPath(part));

        return ops;
    }

    /** @return The paths of the parts a manifest names; empty if {@code raw} is no manifest. */
    List<String> partPaths(String path, byte[] raw) {
        if (!PartsManifest.isManifest(raw))
            return Collections.emptyList();

        PartsManifest m = PartsManifest.decode(raw, path);
        List<String> out = new ArrayList<>(m.count);

        for (int k = 0; k < m.count; k++)
            out.add(m.partPath(paths, k));

        return out;
    }

    /** @return The raw data of a node (a manifest is not resolved), or null if there is none. */
    public byte[] rawData(String path) throws Exception {
        return rawData(path, null);
    }

    /** @return The znode's bytes as stored, its stat in {@code stat} if given; null if there is no such znode. */
    public byte[] rawData(String path, Stat stat) throws Exception {
        try {
            return stat == null ? client.getData().forPath(path) : client.getData().storingStatIn(stat).forPath(path);
        }
        catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    public CuratorOp setDataOp(String path, byte[] data, int version) throws Exception {
        return client.transactionOp().setData().withVersion(version).forPath(path, data);
    }

    public CuratorOp setDataOp(String path, byte[] data) throws Exception {
        return client.transactionOp().setData().forPath(path, data);
    }

    public CuratorOp checkOp(String path) throws Exception {
        return client.transactionOp().check().forPath(path);
    }

    public CuratorOp checkOp(String path, int version) throws Exception {
        return client.transactionOp().check().withVersion(version).forPath(path);
    }

    public CuratorOp deleteOp(String path) throws Exception {
        return client.transactionOp().delete().forPath(path);
    }

    public List<String> children(String path) throws Exception {
        ZkFaults.raise(faults.failListing(path));

        try {
            return client.getChildren().forPath(path);
        }
        catch (KeeperException.NoNodeException e) {
            return Collections.emptyList();
        }
    }

    public boolean exists(String path) throws Exception {
        ZkFaults.raise(faults.failRead(path));

        return client.checkExists().forPath(path) != null;
    }

    /**
     * @return Whether ephemeral {@code path} exists; if so, {@code watcher} fires once when it goes. A watch on its
     *      children, which it cannot have, so not on its data (an alive znode's acks). Not an {@code exists}: on a
     *      missing znode that would leave a watch for a creation that never comes.
     */
    public boolean watchUntilGone(String path, Watcher watcher) throws Exception {
        ZkFaults.raise(faults.failWatch(path));

        try {
            client.getChildren().usingWatcher(watcher).forPath(path);
            return true;
        }
        catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    /**
     * @return Whether {@code path} is an ephemeral znode of this client's current session: one this client wrote, and
     *      not in a session since ended.
     */
    public boolean ownEphemeral(String path) throws Exception {
        long owner = ephemeralOwner(path);

        return owner != 0 && owner == sessionId();
    }

    /** @return The session that owns ephemeral {@code path}; 0 when it is gone (or not ephemeral). */
    public long ephemeralOwner(String path) throws Exception {
        Stat s = client.checkExists().forPath(path);

        return s == null ? 0 : s.getEphemeralOwner();
    }

    /** @return This client's ZooKeeper session now. */
    public long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    public void setData(String path, byte[] data) throws Exception {
        ZkFaults.raise(faults.failWrite(path));

        client.setData().forPath(path, data);
    }

    /**
     * Deletes a node and, if it is a manifest, its parts; quietly does nothing if it is gone. A manifest whose
     * parts are missing, or that is corrupt, does not keep the node itself: it is deleted alone.
     */
    public void deleteQuietly(String path) {
        try {
            byte[] raw = rawData(path);

            if (raw != null)
                commit(deleteOps(path, raw));
        }
        catch (Exception partsGoneOrCorrupt) {
            try {
                client.delete().forPath(path);
            }
            catch (Exception ignored) {
                // Gone already, or cleanup for another time.
            }
        }
    }
}
