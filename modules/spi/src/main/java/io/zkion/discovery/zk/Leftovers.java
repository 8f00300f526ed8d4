package io.zkion.discovery.zk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the znodes nobody needs any more, for the sweeps of a coordinator, a founder and a node that removes the
 * cluster: parts no manifest names, and the data znodes of nodes not joining. Reads only; whoever deletes decides.
 */
public final class Leftovers {
    private final ZkStore store;
    private final ZkPaths paths;

    Leftovers(ZkStore store) {
        this.store = store;
        this.paths = store.paths();
    }

    /**
     * @return The parts no znode under {@code dirs} names in its manifest: left by a multi that failed after its parts
     *      were written, or by a cluster that died. A part of a write still under way is among them, until its multi
     *      commits: whoever deletes these must give such writes time to commit first.
     */
    public Set<String> unreferencedParts(String... dirs) throws Exception {
        List<String> names = store.children(paths.parts);

        if (names.isEmpty())
            return Collections.emptySet();

        Set<String> out = new HashSet<>();

        for (String name : names)
            out.add(paths.parts + "/" + name);

        for (String dir : dirs) {
            for (String name : store.children(dir)) {
                String path = dir + "/" + name;

                try {
                    out.removeAll(store.partPaths(path, store.rawData(path)));
                }
                catch (ZkDataException corrupt) {
                    // A manifest that cannot be read names no part anyone can read either.
                }
            }
        }

        return out;
    }

    /** @return The paths of the parts {@code path} names, if it is a manifest; empty otherwise, or if it is gone. */
    public List<String> partsOf(String path) throws Exception {
        return store.partPaths(path, store.rawData(path));
    }

    /**
     * @return Names under {@code nodes/} without a join request beside them: data of nodes that joined, or that
     *      gave up. Listed first, as a joiner creates both in one multi, so a request seen missing was not written yet.
     */
    public List<String> dataZnodesNotJoining() throws Exception {
        List<String> names = store.children(paths.nodes);

        if (names.isEmpty())
            return names;

        Set<String> joining = new HashSet<>(store.children(paths.join));
        List<String> out = new ArrayList<>(names.size());

        for (String n : names) {
            if (!joining.contains(n))
                out.add(n);
        }

        return out;
    }
}
