package io.zkion.discovery.bench.scale;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.jdk.JdkMarshaller;

/**
 * Ignite's JDK marshaller, except that the strings and byte arrays it reads are shared by every member of the JVM.
 * Each member still reads and decodes every node itself, as on its own machine; only the memory is shared: a thousand
 * members that each keep a thousand nodes' attributes would need some 30 GB otherwise, where one real node needs 30 MB.
 */
final class SharedValuesMarshaller extends JdkMarshaller {
    private static final Map<String, String> STRINGS = new ConcurrentHashMap<>();
    private static final Map<ByteBuffer, byte[]> BYTES = new ConcurrentHashMap<>();

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

                return BYTES.computeIfAbsent(ByteBuffer.wrap(b), k -> b);
            }

            return obj;
        }
    }
}
