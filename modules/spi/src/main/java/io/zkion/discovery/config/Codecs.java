package io.zkion.discovery.config;

import java.util.ArrayList;
import java.util.List;
import io.zkion.discovery.codec.event.EventFormat;
import io.zkion.discovery.codec.event.EventFormats;
import io.zkion.discovery.codec.event.FormatId;
import io.zkion.discovery.codec.event.JdkZlibEventFormat;
import io.zkion.discovery.codec.ion.IonEventFormat;
import io.zkion.discovery.codec.msg.ControlCodec;
import io.zkion.discovery.codec.zip.StreamingZip;
import io.zkion.discovery.internal.ObjectCodec;
import org.apache.ignite.marshaller.Marshaller;

/** The codecs a node runs with, built once from its settings: event formats, control records, Ignite objects. */
public final class Codecs {
    public final EventFormats formats;
    public final ControlCodec control;
    public final ObjectCodec objects;

    /**
     * @param eventFormats The wire names of the formats this node reads, checked already.
     * @param maxInflatedBytes A payload inflating past this is refused.
     */
    public Codecs(String[] eventFormats, long maxInflatedBytes, Marshaller marsh, ClassLoader clsLdr) {
        StreamingZip zip = new StreamingZip(maxInflatedBytes);
        List<EventFormat> list = new ArrayList<>();

        for (String f : eventFormats) {
            FormatId id = FormatId.ofWireName(f);

            list.add(id == FormatId.JDK_ZLIB ? new JdkZlibEventFormat(marsh, zip) : new IonEventFormat(zip, id));
        }

        this.formats = new EventFormats(list);
        this.control = new ControlCodec(zip);
        // Objects always travel inside a payload that is compressed as a whole: stored blocks here, one real
        // compression there.
        this.objects = new ObjectCodec(marsh, zip.stored(), clsLdr);
    }
}
