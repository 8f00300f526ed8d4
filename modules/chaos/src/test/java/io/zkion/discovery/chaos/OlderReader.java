package io.zkion.discovery.chaos;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * ZkIon's own classes as one build has them, in a class loader of their own, for a test to call as that build's
 * node would: another release's jars, or this build's classes. Everything else (ion-java, Ignite, Curator) comes from
 * the test's class path, in the versions every release so far uses.
 */
final class OlderReader {
    private final String name;
    private final ClassLoader loader;

    private OlderReader(String name, ClassLoader loader) {
        this.name = name;
        this.loader = loader;
    }

    /** Release {@code name}'s jars. */
    static OlderReader of(String name, List<Path> jars) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();

        for (Path j : jars)
            urls.add(j.toUri().toURL());

        ClassLoader parent = new ClassLoader(OlderReader.class.getClassLoader()) {
            @Override protected Class<?> loadClass(String cls, boolean resolve) throws ClassNotFoundException {
                // The release's own classes only from its jars, never this build's.
                if (cls.startsWith("io.zkion."))
                    throw new ClassNotFoundException(cls);

                return super.loadClass(cls, resolve);
            }
        };

        return new OlderReader(name, new URLClassLoader(urls.toArray(new URL[0]), parent));
    }

    /** This build. */
    static OlderReader current() {
        return new OlderReader("this build", OlderReader.class.getClassLoader());
    }

    /** @return The control codec's {@code decode<kind>(data, what)}. */
    /** @return Whether this build's control codec decodes records of {@code kind}. */
    boolean knows(String kind) throws ClassNotFoundException {
        return Arrays.stream(loader.loadClass("io.zkion.discovery.codec.msg.ControlCodec").getMethods())
            .anyMatch(m -> m.getName().equals("decode" + kind));
    }

    Object decodeControl(String kind, byte[] data, String what) throws Throwable {
        Class<?> zip = loader.loadClass("io.zkion.discovery.codec.zip.StreamingZip");
        Object codec = loader.loadClass("io.zkion.discovery.codec.msg.ControlCodec").getConstructor(zip)
            .newInstance(zip.getMethod("defaults").invoke(null));

        return call(codec.getClass().getMethod("decode" + kind, byte[].class, String.class), codec, data, what);
    }

    /** @return A static method of one of the build's classes, called; the private ones too. */
    Object callStatic(String cls, String method, Class<?>[] types, Object... args) throws Throwable {
        Method m = loader.loadClass(cls).getDeclaredMethod(method, types);

        m.setAccessible(true);

        return call(m, null, args);
    }

    private static Object call(Method m, Object target, Object... args) throws Throwable {
        try {
            return m.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** @return Every field of a record, nested records' too, by name: the records have no equals of their own. */
    static String describe(Object rec) {
        if (rec == null || rec instanceof Enum || !rec.getClass().getName().startsWith("io.zkion."))
            return rec instanceof byte[] ? Arrays.toString((byte[])rec) : String.valueOf(rec);

        StringBuilder sb = new StringBuilder(rec.getClass().getSimpleName()).append('{');
        Field[] fields = rec.getClass().getDeclaredFields();

        Arrays.sort(fields, Comparator.comparing(Field::getName));

        for (Field f : fields) {
            if (Modifier.isStatic(f.getModifiers()))
                continue;

            f.setAccessible(true);

            try {
                Object v = f.get(rec);

                sb.append(f.getName()).append('=').append(v instanceof byte[] ? Arrays.toString((byte[])v)
                    : describe(v)).append(' ');
            }
            catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        return sb.append('}').toString();
    }

    @Override public String toString() {
        return name;
    }
}
