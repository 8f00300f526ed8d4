package io.zkion.discovery.resolve;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.internal.ObjectCodec;

/**
 * The golden fixtures of a communication-failure round's log entries, {@link RoundStart} and {@link RoundEnd}: the
 * bytes a coordinator puts in a custom event of the log, as the SPI writes them (Ignite's JDK marshaller, stored zlib).
 * {@link #main} wrote them once, at release 0.2.0; they are never regenerated. A release that changes either class
 * adds fixtures beside these, and must still read these to the same values: a node of the next release meets them in
 * a log written by this one. (The reports, {@code comm/r-<round>/<node>}, are Ion control records with fixtures of
 * their own in the codec module.) Run from the project's root, with the JVM flags of the root pom's
 * {@code zkion.jvm.opens}: Ignite's marshaller needs them on JDK 17.
 */
public final class RoundFixtures {
    static final String DIR = "fixtures/rounds/";

    static final UUID ROUND = UUID.fromString("6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b");
    static final UUID KILLED_1 = UUID.fromString("00000000-0000-0000-0000-000000000002");
    static final UUID KILLED_2 = UUID.fromString("00000000-0000-0000-0000-000000000004");

    private RoundFixtures() {
    }

    /** @return Each fixture's name and the entry it holds. */
    static Map<String, RoundMessage> messages() {
        Map<String, RoundMessage> m = new LinkedHashMap<>();

        m.put("round-start", new RoundStart(ROUND));
        m.put("round-end-removed-two", new RoundEnd(ROUND, Arrays.asList(KILLED_1, KILLED_2),
            "decided by DefaultCommunicationFailureResolver"));
        m.put("round-end-no-change", new RoundEnd(ROUND, Arrays.asList(), "every node reaches every other"));

        return m;
    }

    /** The SPI's own object codec, as {@code Codecs} builds it, with no Ignite node around it. */
    static ObjectCodec objects() {
        return new ObjectCodec(JdkMarshallers.create(), StreamingZip.defaults().stored(),
            RoundFixtures.class.getClassLoader());
    }

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "modules/spi/src/test/resources/").resolve(DIR);
        ObjectCodec objects = objects();

        Files.createDirectories(dir);

        // Written once: a fixture already there is never rewritten.
        for (Map.Entry<String, RoundMessage> e : messages().entrySet()) {
            Path f = dir.resolve(e.getKey() + ".zko");

            if (!Files.exists(f))
                Files.write(f, objects.marshal(e.getValue()));
        }
    }
}
