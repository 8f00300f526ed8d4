package io.zkion.discovery.codec.zip;

import io.zkion.discovery.codec.CodecException;
import org.apache.ignite.IgniteCheckedException;
import org.apache.ignite.marshaller.Marshaller;

/**
 * {@link StreamingZip}'s use of an Ignite marshaller, kept apart so that {@code StreamingZip} itself loads without
 * ignite-core: the state tool reads Ion payloads with the {@code -all} jar alone.
 */
final class IgniteMarshalling {
    private IgniteMarshalling() {
    }

    static byte[] marshalZip(StreamingZip zip, Marshaller marsh, Object obj) throws IgniteCheckedException {
        try {
            return zip.zip(out -> marsh.marshal(obj, out));
        }
        catch (CodecException e) {
            throw new IgniteCheckedException("Failed to marshal and compress "
                + (obj == null ? "null" : obj.getClass().getName()), e);
        }
    }

    static <T> T unmarshalZip(StreamingZip zip, Marshaller marsh, byte[] zipped, ClassLoader ldr, String what) {
        return zip.unzip(zipped, what, in -> marsh.unmarshal(in, ldr));
    }
}
