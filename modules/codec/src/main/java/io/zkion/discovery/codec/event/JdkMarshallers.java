package io.zkion.discovery.codec.event;

import org.apache.ignite.marshaller.Marshaller;

/**
 * Ignite's JDK marshaller, for 2.17 (a class, {@code JdkMarshaller}) and 2.18 (an interface with
 * {@code JdkMarshallerImpl}) alike, so one build runs on both.
 */
public final class JdkMarshallers {
    private JdkMarshallers() {
    }

    public static Marshaller create() {
        for (String cls : new String[] {"org.apache.ignite.marshaller.jdk.JdkMarshallerImpl",
            "org.apache.ignite.marshaller.jdk.JdkMarshaller"}) {
            try {
                Class<?> c = Class.forName(cls, true, Marshaller.class.getClassLoader());

                if (!c.isInterface())
                    return (Marshaller)c.getConstructor().newInstance();
            }
            catch (ClassNotFoundException ignored) {
                // Try the other version's name.
            }
            catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot create " + cls, e);
            }
        }

        throw new IllegalStateException("Neither JdkMarshallerImpl nor JdkMarshaller is on the class path");
    }
}
