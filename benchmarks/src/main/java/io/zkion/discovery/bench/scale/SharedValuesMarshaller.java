package io.zkion.discovery.bench.scale;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
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
 * came to 1.5 GB in each JVM of 300 members at 1,000, and their full GCs of 7 s cost members their sessions. With
 * {@link DecodeOnce} on, the decoding itself is shared too.
 */
final class SharedValuesMarshaller extends JdkMarshaller {
    private static final Map<String, String> STRINGS = new ConcurrentHashMap<>();
    /** Never emptied: custom messages' bodies stay too, 2 KB each, a few MB a JVM over a run. */
    private static final Map<ByteKey, byte[]> BYTES = new ConcurrentHashMap<>();
    private static final Map<Map<?, ?>, Map<?, ?>> MAPS = new ConcurrentHashMap<>();

    /** Maps at least this large are shared: a node's attributes, not the small ones a member may change. */
    private static final int SHARED_MAP_SIZE = 32;

    @Override protected <T> T unmarshal0(byte[] arr, ClassLoader ldr) throws IgniteCheckedException {
        return unmarshal0(new ByteArrayInputStream(arr), ldr);
    }

    @SuppressWarnings("unchecked")
    @Override protected <T> T unmarshal0(InputStream in, ClassLoader ldr) throws IgniteCheckedException {
        if (!DecodeOnce.ON)
            return decode(in, ldr);

        byte[] bytes;

        try {
            bytes = in.readAllBytes();
        }
        catch (IOException e) {
            throw new IgniteCheckedException("Failed to unmarshal: " + e, e);
        }

        return (T)DecodeOnce.decoded(bytes, () -> decode(new ByteArrayInputStream(bytes), ldr));
    }

    @SuppressWarnings("unchecked")
    private static <T> T decode(InputStream in, ClassLoader ldr) throws IgniteCheckedException {
        try (ObjectInputStream ois = new Sharing(in, ldr)) {
            return (T)ois.readObject();
        }
        catch (IOException | ClassNotFoundException e) {
            throw new IgniteCheckedException("Failed to unmarshal: " + e, e);
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

                return BYTES.computeIfAbsent(new ByteKey(b), k -> b);
            }

            // A node's attributes: equal maps (their strings and arrays already the shared ones) become one.
            if (obj instanceof HashMap && ((HashMap<?, ?>)obj).size() >= SHARED_MAP_SIZE)
                return MAPS.computeIfAbsent((Map<?, ?>)obj, m -> m);

            return obj;
        }
    }
}
