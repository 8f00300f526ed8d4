package io.zkion.discovery.codec.event;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A run of events with consecutive ids, headed by the state of the cluster after the last of them:
 * cluster id, topology version and event id counter. A log entry is one batch; so is an event window.
 */
public final class EventBatch implements Serializable {
    private static final long serialVersionUID = 1L;

    private final UUID clusterId;
    private final long topVer;
    private final long eventIdCounter;
    private final List<DiscoveryEvent> events;

    public EventBatch(UUID clusterId, long topVer, long eventIdCounter, List<DiscoveryEvent> events) {
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.topVer = topVer;
        this.eventIdCounter = eventIdCounter;
        this.events = Collections.unmodifiableList(new ArrayList<>(events));

        for (int i = 1; i < this.events.size(); i++) {
            if (this.events.get(i).eventId() != this.events.get(i - 1).eventId() + 1)
                throw new IllegalArgumentException("Event ids of a batch must be consecutive: " + this.events);
        }

        if (!this.events.isEmpty() && this.events.get(this.events.size() - 1).eventId() > eventIdCounter) {
            throw new IllegalArgumentException("Event id " + this.events.get(this.events.size() - 1).eventId()
                + " is past the event id counter " + eventIdCounter);
        }
    }

    public UUID clusterId() {
        return clusterId;
    }

    public long topVer() {
        return topVer;
    }

    public long eventIdCounter() {
        return eventIdCounter;
    }

    public List<DiscoveryEvent> events() {
        return events;
    }

    /** @return Id of the first event, or {@code eventIdCounter + 1} when empty. */
    public long firstEventId() {
        return events.isEmpty() ? eventIdCounter + 1 : events.get(0).eventId();
    }

    @Override public boolean equals(Object o) {
        if (this == o)
            return true;

        if (!(o instanceof EventBatch))
            return false;

        EventBatch b = (EventBatch)o;

        return topVer == b.topVer && eventIdCounter == b.eventIdCounter && clusterId.equals(b.clusterId)
            && events.equals(b.events);
    }

    @Override public int hashCode() {
        return Objects.hash(clusterId, topVer, eventIdCounter, events);
    }

    @Override public String toString() {
        return "EventBatch[cluster=" + clusterId + ", topVer=" + topVer + ", counter=" + eventIdCounter
            + ", events=" + events + "]";
    }
}
