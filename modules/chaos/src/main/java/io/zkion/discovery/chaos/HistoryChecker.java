package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the node logs of a run against what discovery promises:
 * <ul>
 * <li>every node that saw topology version V saw the same event for it, each version once, with no gap;</li>
 * <li>each custom message and its ack delivered at most once per node, at one topology version, in one order on
 *     every node; each message whose send returned delivered, with its ack, on every survivor that was in the
 *     cluster before it was sent;</li>
 * <li>a node the others failed (or saw leave) at version F delivers nothing at F or later under that id;</li>
 * <li>no get read a value other than the one written.</li>
 * </ul>
 * Survivors are the incarnations still running (at the end: those stopped by the run). Only sends and deliveries
 * before {@code cutoff} are held to the "delivered everywhere" rule, so that messages still in flight are not lost;
 * before the end, an ack missing past the cutoff is listed in {@link #heldAcks}, not yet judged lost.
 */
final class HistoryChecker {
    private final Collection<NodeHistory> all;
    private final Set<String> survivors;
    private final long cutoff;
    private final List<Violation> found = new ArrayList<>();
    /** Incarnation to the times faults aimed at it were injected, or null when the caller did not say. */
    private Map<String, List<Long>> aimedAt;
    /** How each node id ended, as the events say; set by {@link #check}. */
    private Endings endings;
    /** Where each message (not ack) was first delivered, before the cutoff; set by {@link #check}. */
    private Map<String, First> firstMsgs = new HashMap<>();
    /**
     * The incarnations that ended without a graceful stop (killed, expired, cut off): not survivors, and no IGNITESTOP
     * line. A failed sender's message reaches every member or none (docs/design.md), and a coordinator that failed
     * may have delivered a mutable message to itself that its successor delivers at a later version.
     */
    private Set<String> deadEnds = new HashSet<>();
    /**
     * Incarnations of a release whose graceful stop does not wait for the coordinator to take what it queued
     * (0.1.0: fixed by ef29b80), so that a send returned just before the stop may reach nobody; see
     * {@link #lossyStops}.
     */
    private Set<String> lossyStoppers = Set.of();
    /** The sends of {@link #lossyStoppers} that reached nobody; set by {@link #check}. */
    final List<String> lostByOlderStops = new ArrayList<>();
    /** Where each ack was first delivered, before the cutoff; set by {@link #check}. */
    private Map<String, First> firstAcks = new HashMap<>();
    /**
     * Acks not delivered yet, long after their originals, on running nodes: "node tag deliveredAt". While the run
     * goes on an ack may still come, so they are not judged lost here; the run reports each new batch of them.
     */
    final List<String> heldAcks = new ArrayList<>();

    HistoryChecker(Collection<NodeHistory> all, Set<String> survivors, long cutoff) {
        this.all = all;
        this.survivors = survivors;
        this.cutoff = cutoff;
    }

    /**
     * Gives the faults: incarnation to the times faults aimed at it were injected. Only then does the checker judge
     * failures: a client the cluster failed under an id no fault was aimed at while it had it is a violation (it
     * rejoins, so no exit shows it), and only such an aimed-at id may have had a message reach nobody.
     */
    HistoryChecker aimedAt(Map<String, List<Long>> faultTimes) {
        aimedAt = faultTimes;

        return this;
    }

    /**
     * Names the incarnations whose release loses a send that returned just before a graceful stop (0.1.0): such a
     * message is not owed when nobody delivered it (still all or none), and is listed in {@link #lostByOlderStops}.
     */
    HistoryChecker lossyStops(Set<String> incarnations) {
        lossyStoppers = incarnations;

        return this;
    }

    List<Violation> check() {
        Map<Long, String> eventOf = checkEvents();

        endings = new Endings(eventOf, aimedAt);
        deadEnds = deadEnds();
        firstMsgs = firstDeliveries(false);
        firstAcks = firstDeliveries(true);
        checkMessageCounts();
        checkMessageOrder();
        checkDelivery();
        checkAcksFollowTheirMessages();
        checkDeliveredEverywhere();
        checkNothingAfterOwnEnd();
        endings.unaimedClientFailures(all).forEach(d -> add(Violation.UNPLANNED_FAILURE, d));
        BadReads.of(all).forEach(d -> add(Violation.CACHE, d));

        return found;
    }

    /** @return topVer to "TYPE nodeId", as the first node seen saw it. */
    private Map<Long, String> checkEvents() {
        Map<Long, String> eventOf = new HashMap<>();
        Map<Long, String> seenBy = new HashMap<>();

        for (NodeHistory h : all) {
            for (NodeHistory.View v : h.views) {
                long prev = -1;

                for (NodeHistory.Line l : v.events) {
                    long topVer = Long.parseLong(l.fields[0]);
                    String evt = l.fields[1] + ' ' + l.fields[2];
                    String before = eventOf.putIfAbsent(topVer, evt);

                    seenBy.putIfAbsent(topVer, h.key);

                    if (before != null && !before.equals(evt))
                        add(Violation.EVENTS, "topVer " + topVer + ": " + seenBy.get(topVer) + " saw " + before + ", "
                            + h.key + " saw " + evt);

                    if (prev >= 0 && topVer != prev + 1)
                        add(Violation.EVENTS, h.key + " went from topVer " + prev + " to " + topVer
                            + (topVer <= prev ? " (again or back)" : " (a gap)"));

                    prev = topVer;
                }

                if (v.id != null && !v.events.isEmpty() && Long.parseLong(v.events.get(0).fields[0]) <= v.order)
                    add(Violation.EVENTS, h.key + " (order " + v.order + ") saw topVer " + v.events.get(0).fields[0]
                        + ", not after its own join");
            }
        }

        return eventOf;
    }

    private void checkMessageCounts() {
        Map<String, String> versionOf = new HashMap<>();

        for (NodeHistory h : all) {
            Set<String> seen = new HashSet<>();

            for (NodeHistory.View v : h.views) {
                for (NodeHistory.Line l : v.messages) {
                    String item = l.kind + ' ' + l.fields[1];

                    if (!seen.add(item))
                        add(Violation.MESSAGES, h.key + " delivered " + item + " twice");

                    if (selfDelivered(h, l))
                        continue;

                    String before = versionOf.putIfAbsent(item, l.fields[0] + " on " + h.key);

                    if (before != null && !before.startsWith(l.fields[0] + " on "))
                        add(Violation.MESSAGES, item + " delivered at topVer " + before + " and at " + l.fields[0]
                            + " on " + h.key);
                }
            }
        }
    }

    /** Every two nodes deliver the messages both delivered in the same order. */
    private void checkMessageOrder() {
        List<List<String>> orders = new ArrayList<>();
        List<String> owners = new ArrayList<>();

        for (NodeHistory h : all) {
            List<String> order = new ArrayList<>();

            for (NodeHistory.View v : h.views) {
                for (NodeHistory.Line l : v.messages) {
                    if (!selfDelivered(h, l))
                        order.add(l.kind + ' ' + l.fields[1]);
                }
            }

            orders.add(order);
            owners.add(h.key);
        }

        for (int i = 0; i < orders.size(); i++) {
            Set<String> a = new HashSet<>(orders.get(i));

            for (int j = i + 1; j < orders.size(); j++) {
                Set<String> b = new HashSet<>(orders.get(j));
                List<String> ai = new ArrayList<>();
                List<String> bj = new ArrayList<>();

                orders.get(i).stream().filter(b::contains).forEach(ai::add);
                orders.get(j).stream().filter(a::contains).forEach(bj::add);

                for (int k = 0; k < Math.min(ai.size(), bj.size()); k++) {
                    if (!ai.get(k).equals(bj.get(k))) {
                        add(Violation.MESSAGES, owners.get(i) + " and " + owners.get(j) + " differ in order at their "
                            + "common message " + k + ": " + ai.get(k) + " vs " + bj.get(k));
                        break;
                    }
                }
            }
        }
    }

    /** Sent, then delivered with its ack on every survivor that was in before the send. */
    private void checkDelivery() {
        Map<String, Long> sentAt = new HashMap<>();
        // When each send began: a member must deliver what was sent after it was in, and a send that began before
        // (its sender paused in it, failed out and rejoined, say) may return later.
        Map<String, Long> begunAt = new HashMap<>();

        Map<String, String> senderOf = new HashMap<>();
        // The node id each send began under.
        Map<String, String> sentAs = new HashMap<>();
        // Ids the cluster failed that had not begun a graceful stop: a stopping node's sends come before its end.
        Set<String> failedUnstopped = new HashSet<>();
        // Sender id to when its last send that someone delivered began.
        Map<String, Long> lastDeliveredBegun = new HashMap<>();
        Set<String> stoppedGracefully = new HashSet<>();

        for (NodeHistory h : all) {
            sentAt.putAll(h.sent);
            h.sent.forEach((tag, t) -> begunAt.put(tag, h.sending.getOrDefault(tag, t)));
            h.sent.keySet().forEach(tag -> senderOf.put(tag, h.key));
            sentAs.putAll(h.sentAs);

            for (NodeHistory.View v : h.views) {
                if (endings.failed(v.id) && v.until == Long.MAX_VALUE && endings.aimed(h, v))
                    failedUnstopped.add(v.id);
            }

            for (Map.Entry<String, String> e : h.sentAs.entrySet()) {
                if (firstMsgs.containsKey(e.getKey()))
                    lastDeliveredBegun.merge(e.getValue(), begunAt.get(e.getKey()), Math::max);
            }

            if (h.views.stream().anyMatch(v -> v.until != Long.MAX_VALUE))
                stoppedGracefully.add(h.key);
        }

        for (NodeHistory h : all) {
            if (!survivor(h))
                continue;

            NodeHistory.View v = h.current();
            Map<String, Long> delivered = new HashMap<>();
            Set<String> acked = new HashSet<>();

            for (NodeHistory.Line l : v.messages) {
                if (l.kind.equals("MSG"))
                    delivered.put(l.fields[1], l.time);
                else
                    acked.add(l.fields[1]);
            }

            for (Map.Entry<String, Long> s : sentAt.entrySet()) {
                First f = firstMsgs.get(s.getKey());

                // Logged after this node left (a send that returned just before it stopped, queued meanwhile), or first
                // delivered after its Ignite began to stop: not owed.
                if (f != null && (f.topVer >= endings.endOf.getOrDefault(v.id, Long.MAX_VALUE) || f.time >= v.until))
                    continue;

                // Its sender failed, and nobody delivered it: dropped from the coordinator's queue, all or none. Under
                // an id the cluster failed, only what that id sent after its last message someone delivered: one
                // node's messages are delivered in their order, so a gap before a delivered one is a loss.
                if (f == null && (deadEnds.contains(senderOf.get(s.getKey()))
                    || failedUnstopped.contains(sentAs.get(s.getKey()))
                    && begunAt.get(s.getKey()) > lastDeliveredBegun.getOrDefault(sentAs.get(s.getKey()), Long.MIN_VALUE)))
                    continue;

                // Its sender's release dropped it at its graceful stop, and nobody delivered it: all or none still.
                if (f == null && lossyStoppers.contains(senderOf.get(s.getKey()))
                    && stoppedGracefully.contains(senderOf.get(s.getKey()))) {
                    if (!lostByOlderStops.contains(s.getKey()))
                        lostByOlderStops.add(s.getKey());

                    continue;
                }

                // Begun after this node began to stop: not owed, whoever delivered it.
                if (begunAt.get(s.getKey()) >= v.until)
                    continue;

                if (s.getValue() < cutoff && begunAt.get(s.getKey()) > v.since && !delivered.containsKey(s.getKey()))
                    add(Violation.MESSAGES, h.key + " never delivered " + s.getKey() + ", sent at " + s.getValue()
                        + " while it was in the cluster (since " + v.since + ')');
            }

            for (Map.Entry<String, Long> d : delivered.entrySet()) {
                if (d.getValue() >= cutoff || acked.contains(d.getKey()))
                    continue;

                First ack = firstAcks.get(d.getKey());

                // Its ack first delivered elsewhere after this node's Ignite began to stop: not owed (First#owedBy).
                if (ack != null && ack.time >= v.until)
                    continue;

                if (cutoff == Long.MAX_VALUE)
                    add(Violation.MESSAGES, h.key + " delivered " + d.getKey() + " at " + d.getValue()
                        + " but never its ack");
                else
                    heldAcks.add(h.key + ' ' + d.getKey() + ' ' + d.getValue());
            }
        }
    }

    /**
     * A node delivers a message's ack after the message, never before; and never the ack alone while it was a member
     * when the message was logged (the message's topology version is its join version or later).
     */
    private void checkAcksFollowTheirMessages() {
        Map<String, First> msgs = firstMsgs;

        for (NodeHistory h : all) {
            Set<String> delivered = new HashSet<>();
            Set<String> ackedFirst = new HashSet<>();

            for (NodeHistory.View v : h.views) {
                for (NodeHistory.Line l : v.messages) {
                    String tag = l.fields[1];

                    if (l.kind.equals("MSG")) {
                        delivered.add(tag);

                        if (ackedFirst.contains(tag))
                            add(Violation.MESSAGES, h.key + " delivered the ack of " + tag + " before " + tag);
                    }
                    else if (!delivered.contains(tag))
                        ackedFirst.add(tag);
                }
            }

            for (NodeHistory.View v : h.views) {
                for (NodeHistory.Line l : v.messages) {
                    First msg = msgs.get(l.fields[1]);

                    if (l.kind.equals("ACK") && !delivered.contains(l.fields[1]) && msg != null
                        && msg.owedBy(v, endings.endOf))
                        add(Violation.MESSAGES, h.key + " delivered the ack of " + l.fields[1] + " but never " + l.fields[1]
                            + ", logged at topVer " + msg.topVer + " while it was a member (joined at " + v.order + ')');
                }
            }
        }
    }

    /**
     * What one node delivered, every survivor that was a member when it was logged delivered too: a message whose
     * send never returned (its sender died in it) as well, by topology version ({@link First#owedBy}). Acks only
     * at the end: until then a late one is held (see {@link #heldAcks}), not lost.
     */
    private void checkDeliveredEverywhere() {
        Map<String, First> msgs = firstMsgs;
        Map<String, First> acks = cutoff == Long.MAX_VALUE ? firstAcks : Map.of();

        for (NodeHistory h : all) {
            NodeHistory.View v = h.current();

            if (!survivor(h) || v.id == null)
                continue;

            Set<String> got = new HashSet<>();

            for (NodeHistory.View w : h.views)
                w.messages.forEach(l -> got.add(l.kind + ' ' + l.fields[1]));

            for (Map.Entry<String, First> e : msgs.entrySet())
                missing(h, v, got, "MSG", e.getKey(), e.getValue());

            for (Map.Entry<String, First> e : acks.entrySet())
                missing(h, v, got, "ACK", e.getKey(), e.getValue());
        }
    }

    private void missing(NodeHistory h, NodeHistory.View v, Set<String> got, String kind, String tag, First f) {
        if (f.owedBy(v, endings.endOf) && !got.contains(kind + ' ' + tag))
            add(Violation.MESSAGES, h.key + " never delivered " + (kind.equals("ACK") ? "the ack of " : "") + tag
                + ", which others delivered at topVer " + f.topVer + ", after it joined at " + v.order);
    }

    /** Where a message (or ack) was first delivered: its topology version, and the time. */
    private static final class First {
        final long topVer;
        final long time;

        First(long topVer, long time) {
            this.topVer = topVer;
            this.time = time;
        }

        /**
         * @return Whether a node in view {@code v} owed it: a member when it was logged (at its join version or
         *      later, before the version that took it out), and listening when it was first delivered. A node's
         *      listener is on only from its START line, so what reached it while Ignite was starting is not in its log;
         *      and only until its Ignite began to stop (IGNITESTOP): a stopping Ignite hands its listeners less and less.
         */
        boolean owedBy(NodeHistory.View v, Map<String, Long> endOf) {
            return v.id != null && topVer >= v.order && time > v.since && time < v.until
                && topVer < endOf.getOrDefault(v.id, Long.MAX_VALUE);
        }
    }

    /** @return Each message (or ack) first delivered before the cutoff, anywhere. */
    private Map<String, First> firstDeliveries(boolean acks) {
        Map<String, First> out = new HashMap<>();

        for (NodeHistory h : all) {
            for (NodeHistory.View v : h.views) {
                for (NodeHistory.Line l : v.messages) {
                    if (selfDelivered(h, l))
                        continue;

                    First f = out.get(l.fields[1]);

                    if (l.kind.equals("ACK") == acks && (f == null || l.time < f.time))
                        out.put(l.fields[1], new First(Long.parseLong(l.fields[0]), l.time));
                }
            }
        }

        out.values().removeIf(f -> f.time >= cutoff);

        return out;
    }

    private Set<String> deadEnds() {
        Set<String> out = new HashSet<>();

        for (NodeHistory h : all) {
            if (!survivor(h) && h.views.stream().allMatch(v -> v.until == Long.MAX_VALUE))
                out.add(h.key);
        }

        return out;
    }

    /**
     * @return Whether {@code l} is a mutable message (its tag ends with m) delivered by an incarnation that then
     *      failed: a coordinator delivers one to itself before it logs it, so its successor may log it again and
     *      everyone else deliver it later, or, its sender failed too, nobody (the corner docs/design.md names).
     */
    private boolean selfDelivered(NodeHistory h, NodeHistory.Line l) {
        return l.kind.equals("MSG") && l.fields[1].endsWith("m") && deadEnds.contains(h.key);
    }

    /** @return Whether {@code h} is a survivor: named so, and its node not failed by the cluster. */
    private boolean survivor(NodeHistory h) {
        return survivors.contains(h.key) && !endings.failed(h.current().id);
    }

    /** A node failed or gone at topVer F delivers nothing at F or later under that id: it would be half-alive. */
    private void checkNothingAfterOwnEnd() {
        for (NodeHistory h : all) {
            for (NodeHistory.View v : h.views) {
                Long end = v.id == null ? null : endings.endOf.get(v.id);

                if (end == null)
                    continue;

                for (NodeHistory.Line l : v.events) {
                    if (Long.parseLong(l.fields[0]) >= end) {
                        add(Violation.HALF_ALIVE, h.key + " (" + v.id + ") saw topVer " + l.fields[0] + ' ' + l.fields[1]
                            + ' ' + l.fields[2] + " at " + l.time + ", at or after its own end at topVer " + end);
                        break;
                    }
                }

                for (NodeHistory.Line l : v.messages) {
                    if (Long.parseLong(l.fields[0]) >= end) {
                        add(Violation.HALF_ALIVE, h.key + " (" + v.id + ") delivered " + l.kind + ' ' + l.fields[1]
                            + " at topVer " + l.fields[0] + ", at or after its own end at topVer " + end);
                        break;
                    }
                }
            }
        }
    }

    private void add(String check, String detail) {
        Violation v = new Violation(check, detail);

        if (!found.contains(v))
            found.add(v);
    }
}
