package io.zkion.discovery.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** Each check of {@link HistoryChecker} fails on a history that breaks it, and passes on a good one. */
public class HistoryCheckerTest {
    private static final String A = "aaaaaaaa-0000-0000-0000-000000000001";
    private static final String B = "bbbbbbbb-0000-0000-0000-000000000002";
    private static final String C = "cccccccc-0000-0000-0000-000000000003";

    /** Two servers that agree: A founded (order 1), B joined at 2, C joined at 3 and failed at 4; one message. */
    private static List<String> good(String self, long order) {
        List<String> l = new ArrayList<>(List.of("100 START id=" + self + " order=" + order + " topVer=" + order + " server"));

        if (order < 2)
            l.add("110 EVT 2 NODE_JOINED " + B + " 2");

        l.addAll(List.of("120 EVT 3 NODE_JOINED " + C + " 3", "130 MSG 3 s1.0.1 " + A, "131 ACK 3 s1.0.1 " + A,
            "140 EVT 4 NODE_FAILED " + C + " 3"));

        return l;
    }

    private static List<Violation> check(List<String> a, List<String> b) {
        List<String> sent = new ArrayList<>(a);

        sent.add("125 SENT s1.0.1");

        return new HistoryChecker(List.of(new NodeHistory("s1.0", sent), new NodeHistory("s2.1", b)),
            Set.of("s1.0", "s2.1"), Long.MAX_VALUE).check();
    }

    private static List<String> with(List<String> l, String... extra) {
        List<String> out = new ArrayList<>(l);

        out.addAll(Arrays.asList(extra));
        out.sort((x, y) -> Long.compare(Long.parseLong(x.split(" ")[0]), Long.parseLong(y.split(" ")[0])));

        return out;
    }

    private static List<String> without(List<String> l, String prefix) {
        List<String> out = new ArrayList<>(l);

        out.removeIf(s -> s.startsWith(prefix));

        return out;
    }

    private static void assertOne(String check, String part, List<Violation> found) {
        assertTrue("expected a " + check + " violation naming '" + part + "', got " + found,
            found.stream().anyMatch(v -> v.check.equals(check) && v.detail.contains(part)));
    }

    @Test public void aGoodHistoryPasses() {
        assertEquals(List.of(), check(good(A, 1), good(B, 2)));
    }

    @Test public void nodesThatDisagreeOnATopologyVersionFail() {
        List<String> b = good(B, 2);

        b.set(2, "140 EVT 4 NODE_LEFT " + C + " 3");

        assertOne(Violation.EVENTS, "topVer 4", check(good(A, 1), b));
    }

    @Test public void aGapOrARepeatFails() {
        assertOne(Violation.EVENTS, "(a gap)", check(without(good(A, 1), "120 "), good(B, 2)));
        assertOne(Violation.EVENTS, "(again or back)", check(with(good(A, 1), "150 EVT 4 NODE_FAILED " + C + " 3"),
            good(B, 2)));
    }

    /** Planted defect: B hands Ignite the ack before the message. */
    @Test public void anAckBeforeItsMessageFails() {
        List<String> b = without(good(B, 2), "130 MSG");

        b = with(b, "132 MSG 3 s1.0.1 " + A);

        assertOne(Violation.MESSAGES, "s2.1 delivered the ack of s1.0.1 before s1.0.1", check(good(A, 1), b));
    }

    /** Planted defect: B, a member when the message was logged, gets its ack alone. */
    @Test public void anAckWithoutItsMessageFailsOnAMember() {
        assertOne(Violation.MESSAGES, "s2.1 delivered the ack of s1.0.1 but never s1.0.1",
            check(good(A, 1), without(good(B, 2), "130 MSG")));
    }

    /**
     * Planted defect: a message whose send never returned (its sender died in the call: no SENT line) reached A but
     * not B, a member since before it was logged. The rule on returned sends alone would not see it.
     */
    @Test public void aMessageSomeDeliveredIsOwedByEverySurvivorThatWasIn() {
        List<String> a = with(good(A, 1), "135 MSG 3 c1.4.0 " + A);
        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("s2.1",
            good(B, 2))), Set.of("s1.0", "s2.1"), Long.MAX_VALUE).check();

        assertOne(Violation.MESSAGES, "s2.1 never delivered c1.4.0, which others delivered at topVer 3, after it joined at 2",
            found);
    }

    /** A node that joined after a message was logged owes it nothing, and may see its ack alone. */
    @Test public void aLaterJoinerOwesEarlierMessagesNothing() {
        List<String> late = List.of("125 START id=" + C + " order=3 topVer=3 server", "131 ACK 3 s9.9.9 " + A);
        List<String> a = with(good(A, 1), "118 MSG 2 s9.9.9 " + A, "131 ACK 3 s9.9.9 " + A);
        List<String> b = with(good(B, 2), "118 MSG 2 s9.9.9 " + A, "131 ACK 3 s9.9.9 " + A);
        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("s2.1", b),
            new NodeHistory("s3.2", late)), Set.of("s1.0", "s2.1"), Long.MAX_VALUE).check();

        assertTrue(found.toString(), found.stream().noneMatch(v -> v.detail.contains("s9.9.9")));
    }

    /**
     * Seen in CI at the end of a run: a send returned, its message waited in the coordinator's queue, and B stopped
     * gracefully before it was logged. Logged after B's NODE_LEFT, the message was never B's to deliver.
     */
    @Test public void aMessageLoggedAfterASurvivorLeftIsNotOwedByIt() {
        List<String> a = with(good(A, 1), "150 SENDING s1.0.9", "151 SENT s1.0.9", "160 EVT 5 NODE_LEFT " + B + " 2",
            "170 MSG 5 s1.0.9 " + A, "171 ACK 5 s1.0.9 " + A);
        List<String> b = with(good(B, 2), "155 STOPPING", "158 STOPPED STOPPED");
        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("s2.1", b)),
            Set.of("s1.0", "s2.1"), Long.MAX_VALUE).check();

        assertTrue(found.toString(), found.stream().noneMatch(v -> v.detail.contains("s1.0.9")));
    }

    /**
     * A node whose Ignite began to stop (IGNITESTOP) before an ack was first delivered anywhere does not owe it: a
     * stopping Ignite hands its listeners less and less. The chaos smoke met it when a client stopped while acks were
     * being logged, before its NODE_LEFT. An ack first delivered before then is still owed, and so is one after the
     * stop command (STOPPING) while the node drains its sends, Ignite still running.
     */
    @Test public void whatIsFirstDeliveredAfterANodeBeganToStopIsNotOwedByIt() {
        List<String> b = with(without(good(B, 2), "131 "), "129 STOPPING", "131 IGNITESTOP", "160 STOPPED STOPPED");

        assertEquals(List.of(), check(with(without(good(A, 1), "131 "), "132 ACK 3 s1.0.1 " + A), b));
        assertOne(Violation.MESSAGES, "s1.0.1", check(with(without(good(A, 1), "131 "), "130 ACK 3 s1.0.1 " + A), b));
    }

    @Test public void aMessageDeliveredTwiceFails() {
        assertOne(Violation.MESSAGES, "MSG s1.0.1 twice", check(with(good(A, 1), "132 MSG 3 s1.0.1 " + A), good(B, 2)));
    }

    @Test public void aLostMessageOrAckFails() {
        assertOne(Violation.MESSAGES, "never delivered s1.0.1", check(good(A, 1), without(good(B, 2), "130 ")));
        assertOne(Violation.MESSAGES, "never its ack", check(good(A, 1), without(good(B, 2), "131 ")));
    }

    /**
     * A send that began before a member's current membership (here B, started anew at 127) and returned after it: the
     * member need not deliver it. The chaos run met it when a client paused in a send, was failed out and rejoined.
     */
    @Test public void aSendBegunBeforeAMembershipIsNotOwedToIt() {
        List<String> b = List.of("127 START id=" + B + " order=5 topVer=5 server");

        assertEquals(List.of(), checkSend("115 SENDING s1.0.1", b));
        assertOne(Violation.MESSAGES, "never delivered s1.0.1", checkSend("128 SENDING s1.0.1", b));
    }

    private static List<Violation> checkSend(String sending, List<String> b) {
        List<String> a = with(good(A, 1), sending, "135 SENT s1.0.1");

        return new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("s2.1", b)),
            Set.of("s1.0", "s2.1"), Long.MAX_VALUE).check();
    }

    @Test public void aMessageAtAnotherTopologyVersionFails() {
        List<String> b = good(B, 2);

        b.set(2, "130 MSG 2 s1.0.1 " + A);

        assertOne(Violation.MESSAGES, "delivered at topVer", check(good(A, 1), b));
    }

    @Test public void messagesInAnotherOrderFail() {
        List<String> a = with(good(A, 1), "132 MSG 3 s2.1.1 " + B);
        List<String> b = with(good(B, 2), "129 MSG 3 s2.1.1 " + B);

        assertOne(Violation.MESSAGES, "differ in order", check(a, b));
    }

    @Test public void aNodeThatGoesOnAfterItFailedIsHalfAlive() {
        List<String> c = List.of("115 START id=" + C + " order=3 topVer=3 server", "150 EVT 5 NODE_JOINED " + A + " 5");
        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", good(A, 1)),
            new NodeHistory("s3.2", c)), Set.of("s1.0"), Long.MAX_VALUE).check();

        assertOne(Violation.HALF_ALIVE, "s3.2", found);

        List<String> c2 = List.of("115 START id=" + C + " order=3 topVer=3 server", "150 MSG 4 s1.0.9 " + A);

        assertOne(Violation.HALF_ALIVE, "delivered MSG s1.0.9", new HistoryChecker(List.of(
            new NodeHistory("s1.0", good(A, 1)), new NodeHistory("s3.2", c2)), Set.of("s1.0"), Long.MAX_VALUE).check());
    }

    @Test public void anAckMissingBeforeTheEndIsHeldNotLost() {
        List<String> a = new ArrayList<>(good(A, 1));

        a.add("125 SENT s1.0.1");

        HistoryChecker c = new HistoryChecker(List.of(new NodeHistory("s1.0", a),
            new NodeHistory("s2.1", without(good(B, 2), "131 "))), Set.of("s1.0", "s2.1"), 1_000);

        assertEquals(List.of(), c.check());
        assertEquals(List.of("s2.1 s1.0.1 130"), c.heldAcks);
    }

    @Test public void aMessageOfTheNewLifeLoggedJustBeforeTheReconnectIsNotHalfAlive() {
        String c2 = "dddddddd-0000-0000-0000-000000000004";
        // As seen: Ignite's custom listener wrote the new life's message before the reconnect event's line.
        List<String> client = List.of("105 START id=" + C + " order=3 topVer=3 client", "135 DISCONNECTED 3",
            "144 MSG 5 s1.0.2 " + A, "145 RECONNECTED id=" + c2 + " order=5 topVer=5", "151 ACK 5 s1.0.2 " + A);
        List<String> a = with(good(A, 1), "145 EVT 5 NODE_JOINED " + c2 + " 5", "146 SENT s1.0.2",
            "150 MSG 5 s1.0.2 " + A, "151 ACK 5 s1.0.2 " + A, "125 SENT s1.0.1");

        assertEquals(List.of(), new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("c1.3", client)),
            Set.of("s1.0", "c1.3"), Long.MAX_VALUE).check());

        // The old life delivering after the cluster failed it, before the disconnect, is still caught.
        List<String> late = List.of("105 START id=" + C + " order=3 topVer=3 client", "141 MSG 4 s1.0.3 " + A,
            "142 DISCONNECTED 4", "145 RECONNECTED id=" + c2 + " order=5 topVer=5");

        assertOne(Violation.HALF_ALIVE, "delivered MSG s1.0.3", new HistoryChecker(List.of(new NodeHistory("s1.0", a),
            new NodeHistory("c1.3", late)), Set.of("s1.0"), Long.MAX_VALUE).check());
    }

    @Test public void aWrongReadFails() {
        assertOne(Violation.CACHE, "c1.7.3", check(with(good(A, 1), "150 GETBAD c1.7.3 null"), good(B, 2)));
    }

    /** A read that missed a write is a violation even when a read 500 ms later finds it; the report says which. */
    @Test public void aWrongReadFoundAgainLaterStillFailsAndSaysSo() {
        List<String> c = new ArrayList<>(with(good(A, 1), "150 GETBAD c1.7.3 null acknowledged 4, tried 4"));

        c.add("151 GETBADAT c1.7.3 partition=11 topVer=88 owners=s5#70,s6#86");
        c.add("652 REREAD c1.7.3 c1.7.3-4 ok");

        assertOne(Violation.CACHE, "(then: GETBADAT partition=11 topVer=88 owners=s5#70,s6#86; REREAD c1.7.3-4 ok)",
            check(c, good(B, 2)));
    }

    @Test public void aSendStillInFlightIsNotYetLost() {
        List<String> a = new ArrayList<>(good(A, 1));

        a.add("125 SENT s1.0.1");

        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", a),
            new NodeHistory("s2.1", without(good(B, 2), "13"))), Set.of("s1.0", "s2.1"), 120).check();

        assertEquals(List.of(), found);
    }

    @Test public void aClientRejoinedUnderANewIdIsHeldOnlyToItsNewLife() {
        String c2 = "dddddddd-0000-0000-0000-000000000004";
        List<String> client = List.of("105 START id=" + C + " order=3 topVer=3 client", "135 DISCONNECTED 3",
            "145 RECONNECTED id=" + c2 + " order=5 topVer=5", "150 MSG 5 s1.0.2 " + A, "151 ACK 5 s1.0.2 " + A);
        List<String> a = with(good(A, 1), "145 EVT 5 NODE_JOINED " + c2 + " 5", "146 SENT s1.0.2",
            "150 MSG 5 s1.0.2 " + A, "151 ACK 5 s1.0.2 " + A, "125 SENT s1.0.1");

        assertEquals(List.of(), new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("c1.3", client)),
            Set.of("s1.0", "c1.3"), Long.MAX_VALUE).check());
    }
    /**
     * A server the cluster failed whose process still runs (segmented, stopping) when a check after a fault runs is
     * no survivor: what it did not deliver is not owed (chaos run of 2026-11-28: the coordinator on a slow link). A
     * survivor that missed the same message still fails.
     */
    @Test public void aNodeTheClusterFailedIsNoSurvivorWhileItsProcessStillRuns() {
        List<String> c = List.of("100 START id=" + C + " order=3 topVer=3 server");
        List<String> a = with(good(A, 1), "125 SENT s1.0.1");
        Set<String> running = Set.of("s1.0", "s2.1", "s3.0");

        assertEquals(List.of(), new HistoryChecker(List.of(new NodeHistory("s1.0", a), new NodeHistory("s2.1", good(B, 2)),
            new NodeHistory("s3.0", c)), running, Long.MAX_VALUE).check());

        assertOne(Violation.MESSAGES, "s2.1 never delivered s1.0.1", new HistoryChecker(List.of(new NodeHistory("s1.0", a),
            new NodeHistory("s2.1", without(good(B, 2), "13")), new NodeHistory("s3.0", c)), running,
            Long.MAX_VALUE).check());
    }

    /**
     * A client whose session ended rejoins in the same process under a new id: a message it sent under the old id,
     * that the coordinator's queue dropped with it, reached nobody, all or none (chaos run of 2026-11-28), when a fault
     * was aimed at it while it had that id. Without such a fault its failure is a violation and the message was owed;
     * one sent under the new id and delivered by nobody fails too.
     */
    @Test public void aMessageSentUnderAnIdTheClusterFailedMayReachNobody() {
        assertEquals(List.of(), checkClient(CLIENT, Map.of("c1.3", List.of(130L))));

        List<Violation> unaimed = checkClient(CLIENT, Map.of());

        assertOne(Violation.UNPLANNED_FAILURE, "the cluster failed client c1.3 (node " + C, unaimed);
        assertOne(Violation.MESSAGES, "never delivered c1.3.1", unaimed);

        // A fault aimed at its new life does not excuse the failure of the old one.
        assertOne(Violation.UNPLANNED_FAILURE, "the cluster failed client c1.3 (node " + C,
            checkClient(CLIENT, Map.of("c1.3", List.of(150L))));

        assertOne(Violation.MESSAGES, "never delivered c1.3.2",
            checkClient(with(CLIENT, "150 SENDING c1.3.2", "151 SENT c1.3.2"), Map.of("c1.3", List.of(130L))));
    }

    /** Under a failed id only the tail is excused: a message begun before one someone delivered was lost. */
    @Test public void aGapBeforeADeliveredMessageOfAFailedIdIsALoss() {
        List<String> client = with(CLIENT, "110 SENDING c1.3.0", "111 SENT c1.3.0", "120 SENDING c1.3.5",
            "121 SENT c1.3.5", "130 MSG 3 c1.3.5 " + C);
        String[] delivered = {"130 MSG 3 c1.3.5 " + C, "131 ACK 3 c1.3.5 " + A};
        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", with(CLIENT_A, delivered)),
            new NodeHistory("s2.1", with(CLIENT_B, delivered)), new NodeHistory("c1.3", client)),
            Set.of("s1.0", "s2.1", "c1.3"), Long.MAX_VALUE).aimedAt(Map.of("c1.3", List.of(130L))).check();

        assertOne(Violation.MESSAGES, "never delivered c1.3.0", found);
        assertTrue("c1.3.1 came after the last delivered one: " + found,
            found.stream().noneMatch(v -> v.detail.contains("never delivered c1.3.1")));
    }

    /** A send begun between a disconnect and the reconnect has no known id: it is never excused as a failed id's. */
    @Test public void aSendBegunWhileDisconnectedIsNotExcused() {
        List<String> client = List.of("105 START id=" + C + " order=3 topVer=3 client", "135 DISCONNECTED 3",
            "140 SENDING c1.3.7", "141 SENT c1.3.7", "145 RECONNECTED id=" + D + " order=5 topVer=5");

        assertOne(Violation.MESSAGES, "never delivered c1.3.7", checkClient(client, Map.of("c1.3", List.of(130L))));
    }

    private static final String D = "dddddddd-0000-0000-0000-000000000004";

    /** A client, C, that sends c1.3.1 at 126, is failed at 4 and rejoins as D at 5. */
    private static final List<String> CLIENT = List.of("105 START id=" + C + " order=3 topVer=3 client",
        "126 SENDING c1.3.1", "127 SENT c1.3.1", "135 DISCONNECTED 3", "145 RECONNECTED id=" + D + " order=5 topVer=5");
    private static final List<String> CLIENT_A = with(good(A, 1), "145 EVT 5 NODE_JOINED " + D + " 5",
        "125 SENT s1.0.1");
    private static final List<String> CLIENT_B = with(good(B, 2), "145 EVT 5 NODE_JOINED " + D + " 5");

    private static List<Violation> checkClient(List<String> client, Map<String, List<Long>> faults) {
        return new HistoryChecker(List.of(new NodeHistory("s1.0", CLIENT_A), new NodeHistory("s2.1", CLIENT_B),
            new NodeHistory("c1.3", client)), Set.of("s1.0", "s2.1", "c1.3"), Long.MAX_VALUE).aimedAt(faults).check();
    }

    /** A node that began to stop before a send began is not owed it, even when nobody delivered it; others are. */
    @Test public void aSendBegunAfterANodeBeganToStopIsNotOwedByIt() {
        List<String> c = List.of("100 START id=" + D + " order=9 topVer=9 server", "139 IGNITESTOP");
        List<String> a = with(good(A, 1), "150 SENDING s1.0.9", "151 SENT s1.0.9");

        List<Violation> found = new HistoryChecker(List.of(new NodeHistory("s1.0", a),
            new NodeHistory("s2.1", good(B, 2)), new NodeHistory("s3.0", c)), Set.of("s1.0", "s2.1", "s3.0"),
            Long.MAX_VALUE).check();

        assertOne(Violation.MESSAGES, "s2.1 never delivered s1.0.9", found);
        assertTrue("s3.0 began to stop before the send: " + found,
            found.stream().noneMatch(v -> v.detail.startsWith("s3.0 never delivered")));
    }

    /** A and B survive; C (joined at 3, failed at 4) is s3.0, killed unless {@code stoppedGracefully}. */
    private static List<Violation> checkWithC(List<String> a, List<String> b, List<String> c, boolean stoppedGracefully) {
        return checkerWithC(a, b, c, stoppedGracefully).check();
    }

    private static HistoryChecker checkerWithC(List<String> a, List<String> b, List<String> c,
        boolean stoppedGracefully) {
        List<String> sent = new ArrayList<>(a);

        sent.add("125 SENT s1.0.1");

        List<String> cl = new ArrayList<>(List.of("100 START id=" + C + " order=3 topVer=3 server"));

        cl.addAll(c);

        if (stoppedGracefully)
            cl.add("139 IGNITESTOP");

        return new HistoryChecker(List.of(new NodeHistory("s1.0", sent), new NodeHistory("s2.1", b),
            new NodeHistory("s3.0", cl)), Set.of("s1.0", "s2.1"), Long.MAX_VALUE);
    }

    /**
     * A node of 0.1.0 does not wait at its stop for the coordinator to take what it queued: a send that returned just
     * before reaches nobody (MixedReleaseTest, CI of 47addd2). Listed, not a violation, for the incarnations named;
     * still one when some member delivered it (all or none), and for an incarnation not named.
     */
    @Test public void aSendLostByAnOlderReleasesStopIsListedAndAllOrNone() {
        List<String> c = List.of("126 SENDING s3.0.7m", "127 SENT s3.0.7m");

        HistoryChecker lossy = checkerWithC(good(A, 1), good(B, 2), c, true).lossyStops(Set.of("s3.0"));

        assertEquals(List.of(), lossy.check());
        assertEquals(List.of("s3.0.7m"), lossy.lostByOlderStops);

        List<String> a = with(good(A, 1), "135 MSG 3 s3.0.7m " + C);

        assertOne(Violation.MESSAGES, "s2.1 never delivered s3.0.7m",
            checkerWithC(a, good(B, 2), c, true).lossyStops(Set.of("s3.0")).check());
        assertOne(Violation.MESSAGES, "never delivered s3.0.7m",
            checkerWithC(good(A, 1), good(B, 2), c, true).lossyStops(Set.of("s9.9")).check());
    }

    /**
     * A sender that fails: its message reaches every member or none (dropped from the coordinator's queue, as a
     * mutable one, or one behind it, waits there). Nobody delivering it is no violation then; after a graceful stop it
     * is one, since a stopping node's sends come before its NODE_LEFT.
     */
    @Test public void aFailedSendersMessageThatNobodyDeliveredIsNoViolation() {
        List<String> c = List.of("126 SENDING s3.0.7m", "127 SENT s3.0.7m");

        assertEquals(List.of(), checkWithC(good(A, 1), good(B, 2), c, false));
        assertOne(Violation.MESSAGES, "never delivered s3.0.7m", checkWithC(good(A, 1), good(B, 2), c, true));
    }

    /**
     * A coordinator delivers a mutable message to itself before it logs it; killed then, its successor logs it again
     * and the others deliver it later. Not a message delivered at two versions; a plain one would be.
     */
    @Test public void aFailedNodesOwnDeliveryOfAMutableMessageIsLeftOut() {
        List<String> c = List.of("126 MSG 3 s1.0.2m " + A);
        List<String> a = with(good(A, 1), "126 SENT s1.0.2m", "145 MSG 4 s1.0.2m " + A, "146 ACK 4 s1.0.2m " + A);
        List<String> b = with(good(B, 2), "145 MSG 4 s1.0.2m " + A, "146 ACK 4 s1.0.2m " + A);

        assertEquals(List.of(), checkWithC(a, b, c, false));

        List<String> plainC = List.of("126 MSG 3 s1.0.2 " + A);
        List<String> plainA = with(good(A, 1), "126 SENT s1.0.2", "145 MSG 4 s1.0.2 " + A, "146 ACK 4 s1.0.2 " + A);
        List<String> plainB = with(good(B, 2), "145 MSG 4 s1.0.2 " + A, "146 ACK 4 s1.0.2 " + A);

        assertOne(Violation.MESSAGES, "delivered at topVer", checkWithC(plainA, plainB, plainC, false));
    }
}
