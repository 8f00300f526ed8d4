package io.zkion.discovery.coordinator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import io.zkion.discovery.zk.ZkPaths;
import io.zkion.discovery.zk.ZkStore;
import org.apache.zookeeper.data.Stat;

/**
 * Tells whether a coordinator commit that failed had landed after all. Curator re-sends a {@code multi} whose reply
 * was lost; the replay then fails on the state's version, which the first try moved. A commit that writes the state
 * and an entry landed exactly when the state is one version on and holds what the commit wrote (it names this
 * coordinator, its topology version and last event): then the newest entry holding the commit's bytes is its entry.
 * Members' appends never hold the same bytes: their events carry topology version 0, a coordinator's never do.
 */
final class CommitOutcome {
    private final ZkStore store;
    private final ZkPaths paths;

    CommitOutcome(ZkStore store) {
        this.store = store;
        this.paths = store.paths();
    }

    /**
     * @param stateVersion The state's version the commit was checked against.
     * @param stateWritten The state the commit wrote.
     * @param entryStored What the commit's entry znode holds.
     * @return The path of the commit's entry if it landed; null if it did not.
     */
    String landedEntry(int stateVersion, byte[] stateWritten, byte[] entryStored) throws Exception {
        if (!stateLanded(stateVersion, stateWritten))
            return null;

        List<String> names = new ArrayList<>(store.children(paths.log));

        names.sort(Comparator.comparingLong(ZkPaths::sequence).reversed());

        for (String name : names) {
            String path = paths.log + "/" + name;

            if (Arrays.equals(store.rawData(path), entryStored))
                return path;
        }

        // The state says the commit landed, so its entry was created in the same multi: only a trim removes entries.
        return null;
    }

    /**
     * @param stateVersion The state's version the commit was checked against.
     * @param stateWritten The state the commit wrote.
     * @return Whether the commit landed: the state is one version on and holds what it wrote.
     */
    boolean stateLanded(int stateVersion, byte[] stateWritten) throws Exception {
        Stat stat = new Stat();
        byte[] now = store.rawData(paths.state, stat);

        return now != null && stat.getVersion() == stateVersion + 1 && Arrays.equals(now, stateWritten);
    }
}
