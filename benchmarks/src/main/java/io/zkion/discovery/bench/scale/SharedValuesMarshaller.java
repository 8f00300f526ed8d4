package io.zkion.discovery.bench.scale;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;

/**
 * Ignite's JDK marshaller, except that the strings, byte arrays and large maps it reads are shared by every member of
 * the JVM. Each member still reads and decodes every node itself, as on its own machine; only the memory is shared: a
 * thousand members that each keep a thousand nodes' attributes would need some 30 GB otherwise, where one real node
 * needs 30 MB. With strings and arrays shared, the attribute maps themselves (about 145 entries, 5 KB a node) still
 * came to 1.5 GB in each JVM of 300 members at 1,000, and their full GCs of 7 s cost members their sessions.
 */
final class SharedValuesMarshaller extends JdkMarshaller {
    private static final Map<String, String> STRINGS = new ConcurrentHashMap<>();
    private static final Map<Bytes, byte[]> BYTES = new ConcurrentHashMap<>();
    private static final Map<Map<?, ?>, Map<?, ?>> MAPS = new ConcurrentHashMap<>();

    /** Maps at least this large are shared: a node's attributes, not the small ones a member may change. */
    private static final int SHARED_MAP_SIZE = 32;

    @Override protected <T> T unmarshal0(byte[] arr, ClassLoader ldr) throws IgniteCheckedException {
        return unmarshal0(new ByteArrayInputStream(arr), ldr);
    }

    @SuppressWarnings("unchecked")
    @Override protected <T> T unmarshal0(InputStream in, ClassLoader ldr) throws IgniteCheckedException {
        try (ObjectInputStream ois = new Sharing(in, ldr)) {
            return (T)ois.readObject();
        }
        catch (IOException | ClassNotFoundException e) {
            throw new IgniteCheckedException("Failed to unmarshal: " + e, e);
        }
    }

    /**
     * A byte array as a map key. Its hash samples at most 32 bytes and the length: hashing every byte of every array
     * read (ByteBuffer's way) cost the simulation a fifth of its members' CPU in a 300-member storm, which no real node
     * spends. Equal arrays are still told apart by a full comparison.
     */
    private static final class Bytes {
        private final byte[] b;
        private final int hash;

        Bytes(byte[] b) {
            this.b = b;

            int h = b.length;
            int step = Math.max(1, b.length / 32);

            for (int i = 0; i < b.length; i += step)
                h = 31 * h + b[i];

            hash = h;
        }

        @Override public int hashCode() {
            return hash;
        }

        @Override public boolean equals(Object o) {
            return o instanceof Bytes && Arrays.equals(b, ((Bytes)o).b);
        }
    }

    /** Resolves classes by the given loader, and every string and byte array to the JVM's one copy. */
    private static final class Sharing extends ObjectInputStream {
        private final ClassLoader ldr;

        Sharing(InputStream in, ClassLoader ldr) throws IOException {
            super(in);
            this.ldr = ldr;
            enableResolveObject(true);
        }

        @Override protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, ldr == null ? getClass().getClassLoader() : ldr);
            }
            catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }

        @Override protected Object resolveObject(Object obj) {
            if (obj instanceof String)
                return STRINGS.computeIfAbsent((String)obj, s -> s);

            if (obj instanceof byte[]) {
                byte[] b = (byte[])obj;

                return BYTES.computeIfAbsent(new Bytes(b), k -> b);
            }

            // A node's attributes: equal maps (their strings and arrays already the shared ones) become one.
            if (obj instanceof HashMap && ((HashMap<?, ?>)obj).size() >= SHARED_MAP_SIZE)
                return MAPS.computeIfAbsent((Map<?, ?>)obj, m -> m);

            return obj;
        }
    }
}
