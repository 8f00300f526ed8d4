package io.zkion.discovery.codec.ion;

import java.util.List;
import io.zkion.discovery.codec.CorruptPayloadException;
import io.zkion.discovery.codec.event.DiscoveryEvent;
import io.zkion.discovery.codec.ion.IonEventCodec.Header;

/**
 * Re-emits an event window without its acknowledged head and with new events at its tail. The events that
 * stay are byte-copied, not decoded: the cost is inflating and deflating, never re-encoding history.
 */
public final class IonWindowRewriter {
    private final IonEventFormat format;
    private final CopyStats stats;

    public IonWindowRewriter(IonEventFormat format, CopyStats stats) {
        this.format = format;
        this.stats = stats;
    }

    /**
     * @param window A payload written by {@link IonEventFormat}.
     * @param ackedUpTo Events with ids up to this one are dropped.
     * @param topVer Topology version after the appended events.
     * @param appended New events; their ids continue the window's.
     */
    public byte[] rewrite(byte[] window, long ackedUpTo, long topVer, List<DiscoveryEvent> appended, String what) {
        byte[] ion = format.inflate(window, what);
        IonValueCopier copier = new IonValueCopier(ion, stats);
        Header h = IonEventFormat.read(ion, what, r -> IonEventCodec.readHeader(copier.reader(), what));

        long end = h.first + h.count;
        long keepFrom = Math.max(h.first, ackedUpTo + 1);
        int kept = (int)Math.max(0, end - keepFrom);
        long counter = h.counter;

        for (DiscoveryEvent e : appended) {
            if (e.eventId() != counter + 1)
                throw new IllegalArgumentException("Appended event " + e + " does not follow event id " + counter);

            counter = e.eventId();
        }

        long first = kept > 0 ? keepFrom : (appended.isEmpty() ? counter + 1 : appended.get(0).eventId());
        long newCounter = counter;

        return format.wrap(w -> {
            IonEventCodec.writeHeader(w, h.clusterId, topVer, newCounter, first, kept + appended.size());

            for (long id = h.first; id < end; id++) {
                if (copier.reader().next() == null)
                    throw new CorruptPayloadException(what + ": the header announces " + h.count + " events, found fewer");

                if (id >= keepFrom)
                    copier.copyCurrent(w);
            }

            for (DiscoveryEvent e : appended)
                IonEventCodec.writeEvent(w, e);
        });
    }
}
