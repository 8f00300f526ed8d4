package io.zkion.discovery.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.ignite.IgniteLogger;
import org.apache.ignite.spi.IgniteSpiException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Writes one join request: {@code join/<id>}, {@code alive/<id>} and, in ion-2, the node's data znode, in one multi.
 * The two ephemeral znodes so live and die with one session: a coordinator never finds the joiner alive without its
 * request (it would pass the joiner over), and a session that ends takes both, which the joiner sees by its alive
 * znode gone and answers by writing the request again.
 * <p>
 * Replay-safe: Curator re-sends a multi whose reply was lost. In the same session the replay fails on the ephemerals
 * of the first try: an alive znode this session owns is that try, landed. In a new session they went with the old
 * one, and the replay fails on the data znode alone, which is this join's own and is kept.
 */
final class JoinRequestWriter {
    /** Writes of one request at most: a replay, then a data znode swept meanwhile, cost one each. */
    private static final int MAX_TRIES = 3;

    private final ZkStore store;
    private final ZkPaths paths;
    private final UUID id;
    private final byte[] request;
    private final byte[] data;
    private final byte[] alive;
    private final IgniteLogger log;

    /**
     * @param data The node and its joining data for its data znode; null when the request carries them.
     * @param alive What the alive znode holds until the coordinator sets the ack.
     */
    JoinRequestWriter(ZkStore store, UUID id, byte[] request, byte[] data, byte[] alive, IgniteLogger log) {
        this.store = store;
        this.paths = store.paths();
        this.id = id;
        this.request = request;
        this.data = data;
        this.alive = alive;
        this.log = log;
    }

    /** Writes the request, or finds that an earlier write of it landed in this session. */
    void write() throws Exception {
        for (int tries = 1; ; tries++) {
            try {
                commit();

                return;
            }
            catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
                if (store.ownEphemeral(paths.alive(id))) {
                    log.info("The reply to this node's join request was lost, and the request had landed [node=" + id
                        + ']');

                    return;
                }

                if (store.exists(paths.alive(id))) {
                    throw new IgniteSpiException("Node with the same ID already exists: " + id + " (" + paths.alive(id)
                        + " is alive in another session)");
                }

                // NodeExists: the data znode of a write that landed in a session since ended, kept at the next try.
                // NoNode: the data znode this write meant to keep was swept meanwhile, written again at the next.
                if (tries == MAX_TRIES)
                    throw e;
            }
        }
    }

    private void commit() throws Exception {
        // A data znode of an earlier write of this request holds the same bytes: kept, and checked in the multi, so
        // that a sweep removing it meanwhile fails the write rather than leave a request naming nothing.
        boolean keepData = data != null && store.exists(paths.node(id));
        ZkStore.Prepared dataZnode = data == null || keepData ? null
            : store.create(paths.node(id), data, CreateMode.PERSISTENT);
        ZkStore.Prepared req;

        try {
            req = store.create(paths.join(id), request, CreateMode.EPHEMERAL);
        }
        catch (Exception e) {
            if (dataZnode != null)
                store.abandon(dataZnode); // Its multi was never sent.

            throw e;
        }

        List<CuratorOp> ops = new ArrayList<>(req.ops);

        ops.add(store.client().transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(paths.alive(id), alive));

        if (dataZnode != null)
            ops.addAll(dataZnode.ops);
        else if (keepData)
            ops.add(store.checkOp(paths.node(id)));

        store.commit(ops);
    }
}
