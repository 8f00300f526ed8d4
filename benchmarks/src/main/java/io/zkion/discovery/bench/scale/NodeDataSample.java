package io.zkion.discovery.bench.scale;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One real Ignite 2.17 server's discovery data, as its SPI was handed it: the node's attributes, the joining data it
 * sent, and the common data its coordinator collected for a joiner. Values that are not plain strings, numbers or
 * booleans are kept as the bytes Ignite's JDK marshaller made of them, so that a member of the simulation sends the
 * same sizes without Ignite's components. {@link CaptureNodeData} writes it.
 */
final class NodeDataSample implements Serializable {
    private static final long serialVersionUID = 1L;

    static final String RESOURCE = "server-node-2.17.ser";

    final String igniteVersion;
    final Map<String, Serializable> attributes;
    final Map<Integer, byte[]> joiningData;
    final Map<Integer, byte[]> commonData;

    NodeDataSample(String igniteVersion, Map<String, Serializable> attributes, Map<Integer, byte[]> joiningData,
        Map<Integer, byte[]> commonData) {
        this.igniteVersion = igniteVersion;
        this.attributes = new TreeMap<>(attributes);
        this.joiningData = new TreeMap<>(joiningData);
        this.commonData = new TreeMap<>(commonData);
    }

    /** @return The sample shipped with the benchmarks. */
    static NodeDataSample load() {
        try (InputStream in = NodeDataSample.class.getResourceAsStream(RESOURCE)) {
            if (in == null)
                throw new IllegalStateException(RESOURCE + " is missing: run CaptureNodeData");

            return (NodeDataSample)new ObjectInputStream(in).readObject();
        }
        catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("Cannot read " + RESOURCE + ": " + e, e);
        }
    }

    /** @return A member's attributes: the sample's, with what names a node changed. */
    Map<String, Object> attributesOf(String instanceName) {
        Map<String, Object> a = new HashMap<>(attributes);

        a.put("org.apache.ignite.ignite.name", instanceName);

        return a;
    }

    int bytes(Map<Integer, byte[]> m) {
        return m.values().stream().mapToInt(b -> b.length).sum();
    }

    @Override public String toString() {
        return "Ignite " + igniteVersion + " server: " + attributes.size() + " attributes, joining data "
            + joiningData.size() + " parts (" + bytes(joiningData) + " B marshalled), common data " + commonData.size()
            + " parts (" + bytes(commonData) + " B)";
    }
}
