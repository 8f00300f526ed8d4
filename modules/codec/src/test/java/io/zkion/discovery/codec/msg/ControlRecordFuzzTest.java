package io.zkion.discovery.codec.msg;

import java.util.Map;
import java.util.Random;
import io.zkion.discovery.codec.CodecException;
import io.zkion.discovery.codec.DecoderFuzzTest;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Every control record kind (state, gate, alive, join request and answer, node data, connectivity report) on
 * truncated, bit-flipped and random input: each case ends in a {@link CodecException} that names the znode, or in
 * exactly the original record (issue 25: the control records fuzzed, as the event formats are by DecoderFuzzTest).
 */
public class ControlRecordFuzzTest {
    private static final int CASES_PER_KIND = 200;
    private static final String ZNODE = "/zkion/state";

    private final ControlCodec codec = new ControlCodec(StreamingZip.defaults());

    @Test(timeout = 120_000) public void everyKindIsReadWholeOrRefusedByName() {
        Random rnd = new Random(2025);

        for (Map.Entry<String, Object> e : ControlFixtures.records().entrySet()) {
            Object rec = e.getValue();
            byte[] good = ControlFixtures.encode(codec, rec);
            int refused = 0;

            for (int i = 0; i < CASES_PER_KIND; i++) {
                byte[] bad = DecoderFuzzTest.mutate(good, rnd, i);

                try {
                    Object got = ControlFixturesTest.decode(codec, rec, bad, ZNODE);

                    assertEquals(e.getKey() + ", case " + i + ": damaged, it read to another record",
                        ControlFixturesTest.describe(rec), ControlFixturesTest.describe(got));
                }
                catch (CodecException ex) {
                    assertTrue(e.getKey() + ", case " + i + ": the error does not name the znode: " + ex.getMessage(),
                        ex.getMessage() != null && ex.getMessage().contains(ZNODE));
                    refused++;
                }
                catch (RuntimeException | StackOverflowError ex) {
                    throw new AssertionError(e.getKey() + ", case " + i + ": damaged input must fail with a"
                        + " CodecException, not " + ex, ex);
                }
            }

            // The zlib checksum catches nearly every change; a flip in an ignored bit may read to the original.
            assertTrue(e.getKey() + ": refused only " + refused, refused > CASES_PER_KIND / 2);
        }
    }
}
