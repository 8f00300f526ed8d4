package io.zkion.discovery.chaos;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.ion.IonText;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.BeforeClass;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Scenario 5 of issue 13: an older reader meets a record a newer release wrote. For every control record kind (its
 * golden fixture: alive info, join request, answer, node data, state, gate) and for the parts manifest, the changes
 * a newer release may make are read by release 0.1.0 (built from the repository's history, in a class loader of its
 * own) and by this build: each is read to the original record's values, its unknown fields skipped, or refused with
 * an error that names the record. Never read to other values, never dropped without a word.
 */
public class NewerRecordsTest {
    private static final Path FIXTURES = Paths.get("..", "codec", "src", "test", "resources", "fixtures", "control");
    private static final String MANIFEST = "io.zkion.discovery.zk.PartsManifest";

    private static List<OlderReader> readers;

    @BeforeClass public static void buildOldRelease() throws Exception {
        readers = List.of(OlderReader.of(MixedReleaseTest.OLD,
            ReleaseBuild.jars(MixedReleaseTest.OLD, MixedReleaseTest.OLD_COMMIT)), OlderReader.current());
    }

    @Test public void controlRecordsOfANewerReleaseAreReadOrRefusedByName() throws Throwable {
        IonText text = new IonText(new IonEventFormat(StreamingZip.defaults()));
        int read = 0;
        int refused = 0;
        int kinds = 0;
        int pairs = 0; // Fixtures times the readers that know their kind.

        try (DirectoryStream<Path> files = Files.newDirectoryStream(FIXTURES, "*.zkc")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                String kind = kindOf(name);
                byte[] original = Files.readAllBytes(f);

                kinds++;

                for (OlderReader r : readers) {
                    if (!r.knows(kind))
                        continue; // A record kind of a later release than the reader's (0.2.0's reports).

                    pairs++;

                    String expected = OlderReader.describe(r.decodeControl(kind, original, name));

                    for (Map.Entry<String, byte[]> v : newer(text, original, name).entrySet()) {
                        String what = name + " with " + v.getKey();

                        try {
                            Object got = r.decodeControl(kind, v.getValue(), what);

                            assertEquals(r + " read " + what + " to other values", expected, OlderReader.describe(got));
                            read++;
                        }
                        catch (RuntimeException e) {
                            assertTrue(r + " refused " + what + " without naming it: " + e,
                                String.valueOf(e.getMessage()).contains(what));
                            refused++;
                        }
                    }
                }
            }
        }

        System.out.println("[newer-records] " + kinds + " record fixtures, " + read + " newer variants read with their"
            + " unknown fields skipped, " + refused + " refused by name");

        assertEquals("record fixtures (every control record kind, 0.2.0's alive records, connectivity reports, and a"
            + " join answer that shares common data with the shared part)", 18, kinds);
        assertTrue("no variant read", read > 0);
        // The next envelope version, at least, is refused by every reader.
        assertTrue("no variant refused", refused >= pairs);
    }

    /**
     * The alive record of 0.2.0, with who the node is (host, consistent id, order, release) in fields added last:
     * 0.1.0 reads it to the same client, formats and ack as this build, so mixed clusters need no new record version.
     */
    @Test public void release010ReadsTheAliveRecordOf020() throws Throwable {
        for (String name : new String[] {"alive-node.zkc", "alive-node-joining.zkc"}) {
            byte[] rec = Files.readAllBytes(FIXTURES.resolve(name));
            String old = OlderReader.describe(readers.get(0).decodeControl("Alive", rec, name));
            String now = OlderReader.describe(readers.get(1).decodeControl("Alive", rec, name));

            for (String f : new String[] {"ack", "client", "formats"}) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b" + f + "=(\\[[^]]*]|\\S+)").matcher(old);

                assertTrue(old, m.find());
                assertTrue(name + ": 0.1.0 read " + m.group() + ", this build " + now, now.contains(" " + m.group() + " ") || now.contains("{" + m.group() + " "));
            }

            assertTrue(old, !old.contains("host="));
            assertTrue(now, now.contains("host=") && now.contains("release=0.2.0"));
        }
    }

    /** A newer parts manifest (its next version, longer or not) is refused by name, never taken for a payload. */
    @Test public void aNewerPartsManifestIsRefusedByName() throws Throwable {
        byte[] v1 = manifest(1, 0);
        Map<String, byte[]> newer = new LinkedHashMap<>();

        newer.put("version 2", manifest(2, 0));
        newer.put("version 2, 8 bytes longer", manifest(2, 8));

        for (OlderReader r : readers) {
            assertTrue(r + " reads a version 1 manifest", isManifest(r, v1));

            for (Map.Entry<String, byte[]> m : newer.entrySet()) {
                String path = "/zkion/joined/" + UUID.randomUUID() + " (" + m.getKey() + ')';

                try {
                    if (isManifest(r, m.getValue()))
                        r.callStatic(MANIFEST, "decode", new Class<?>[] {byte[].class, String.class}, m.getValue(), path);
                    else // What a reader does with data that is no manifest: decode it as the record it expects.
                        r.decodeControl("JoinResult", m.getValue(), path);

                    fail(r + " read a manifest of " + m.getKey());
                }
                catch (RuntimeException e) {
                    assertTrue(r + " refused a manifest of " + m.getKey() + " without naming it: " + e,
                        String.valueOf(e.getMessage()).contains(path));
                    System.out.println("[newer-records] " + r + ", manifest of " + m.getKey() + ": " + e.getMessage());
                }
            }
        }

        assertTrue("this build takes a longer manifest for a payload",
            isManifest(readers.get(1), newer.get("version 2, 8 bytes longer")));
    }

    /** @return The changes a newer release may make to a record, each as a whole record. */
    private static Map<String, byte[]> newer(IonText text, byte[] original, String name) {
        String ion = text.render(original, name).trim();
        int open = ion.indexOf('{');
        int close = ion.lastIndexOf('}');
        Map<String, byte[]> out = new LinkedHashMap<>();

        assertTrue(name + " is a struct: " + ion, open >= 0 && close > open);

        out.put("a field added first", text.parse(ion.substring(0, open + 1) + "zkionNext: 7, "
            + ion.substring(open + 1), name));
        out.put("a field added last", text.parse(ion.substring(0, close) + ", zkionNext: \"x\" }", name));
        out.put("a nested struct added", text.parse(ion.substring(0, open + 1)
            + "zkionNext: {a: 1, b: [1, 2, {c: null.string}], d: {{AAEC}}}, " + ion.substring(open + 1), name));

        byte[] nextVersion = original.clone();

        nextVersion[2]++;
        out.put("the next envelope version", nextVersion);

        return out;
    }

    private static String kindOf(String fixture) {
        if (fixture.startsWith("alive"))
            return "Alive";
        if (fixture.startsWith("gate"))
            return "Gate";
        if (fixture.startsWith("state"))
            return "State";
        if (fixture.startsWith("join-answer"))
            return "JoinResult";
        if (fixture.startsWith("join-request"))
            return "JoinRequest";
        if (fixture.startsWith("node-data"))
            return "NodeData";
        if (fixture.startsWith("connectivity-report"))
            return "Report";
        if (fixture.startsWith("shared-common"))
            return "SharedCommon";

        throw new IllegalArgumentException("A fixture of no known record kind: " + fixture);
    }

    private static boolean isManifest(OlderReader r, byte[] data) throws Throwable {
        return (Boolean)r.callStatic(MANIFEST, "isManifest", new Class<?>[] {byte[].class}, (Object)data);
    }

    /** @return A parts manifest as the SPI lays it out, of {@code version}, with {@code extra} bytes after it. */
    private static byte[] manifest(int version, int extra) {
        byte[] magic = "ZKPARTS".getBytes(StandardCharsets.US_ASCII);

        return ByteBuffer.allocate(magic.length + 1 + 16 + 4 + 4 + 8 + extra).put(magic).put((byte)version)
            .putLong(1).putLong(2).putInt(3).putInt(3 << 20).putLong(0xCAFEL).array();
    }
}
