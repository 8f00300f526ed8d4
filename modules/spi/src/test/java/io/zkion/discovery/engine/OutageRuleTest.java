package io.zkion.discovery.engine;

import io.zkion.discovery.engine.OutageRule.Outage;
import io.zkion.discovery.engine.OutageRule.Verdict;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

/** The outage rule on a clock of its own: when a node freezes, and when it is cut off. Session timeout 6 s. */
public class OutageRuleTest {
    private static final long T = 6_000;
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);
    private static final List<UUID> PEERS = Arrays.asList(A, B);

    private final OutageRule rule = new OutageRule();

    @Test public void aClientFreezesAtOnce() {
        assertEquals(1, rule.suspended(true, 0, T));
        assertEquals(Outage.FROZEN, rule.state());
        assertEquals(Verdict.NONE, rule.decide(PEERS, 60_000, T));
        assertEquals(Outage.FROZEN, rule.ended());
        assertEquals(Outage.CONNECTED, rule.state());
    }

    @Test public void aServerFreezesOnceEveryOtherServerLostZooKeeperToo() {
        long n = rule.suspended(false, 0, T);

        rule.answered(n, A, false);
        assertEquals(Verdict.NONE, rule.decide(PEERS, 100, T));
        rule.answered(n, B, false);
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 200, T));
        assertEquals(Verdict.NONE, rule.decide(PEERS, 30_000, T));
        assertEquals(Outage.FROZEN, rule.state());
    }

    @Test public void aServerAloneFreezes() {
        rule.suspended(false, 0, T);

        assertEquals(Verdict.FROZE, rule.decide(Collections.emptyList(), 10, T));
    }

    /**
     * The deadlines as figures, not through the rule's own functions: a change of the fraction must show here, and in
     * the guide's outage table (a sixth of 6 s is 1 s; half of it, once the ensemble answers srvr, 3 s).
     */
    @Test public void theDeadlinesArePinnedToFigures() {
        assertEquals(1_000, OutageRule.firstDeadline(6_000));
        assertEquals(1_666, OutageRule.firstDeadline(10_000));

        long n = rule.suspended(false, 0, 6_000);

        rule.answered(n, A, true);
        assertEquals(Verdict.NONE, rule.decide(PEERS, 999, 6_000));
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, 1_000, 6_000));
    }

    @Test public void aServerIsCutOffASixthTimeoutInWhenAPeerReachesZooKeeper() {
        long n = rule.suspended(false, 0, T);

        rule.answered(n, A, true);
        rule.answered(n, B, false);
        assertEquals(Verdict.NONE, rule.decide(PEERS, OutageRule.firstDeadline(T) - 1, T));
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, OutageRule.firstDeadline(T), T));
        assertEquals(Outage.CUT_OFF, rule.state());
        assertNull("a cut-off node's outage does not end", rule.ended());
    }

    @Test public void aServerIsCutOffWhenAPeerDoesNotAnswer() {
        long n = rule.suspended(false, 0, T);

        rule.answered(n, A, false);
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, OutageRule.firstDeadline(T), T));
    }

    /** One ZooKeeper server crashed: another answers that it serves, and the client gets more time to reach it. */
    @Test public void aServingAnswerExtendsTheDeadlineOnceToHalfTheTimeout() {
        long n = rule.suspended(false, 1_000, T);

        rule.answered(n, A, true);
        rule.servingSeen(1_200);
        assertEquals(Verdict.EXTENDED, rule.decide(PEERS, 1_000 + OutageRule.firstDeadline(T), T));
        assertEquals(Outage.DECIDING, rule.state());
        assertEquals(Verdict.NONE, rule.decide(PEERS, 1_000 + T / 2 - 1, T));
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, 1_000 + T / 2, T));
    }

    @Test public void aServingAnswerOfAnEarlierOutageDoesNotCount() {
        rule.servingSeen(500);

        long n = rule.suspended(false, 1_000, T);

        rule.answered(n, A, true);
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, 1_000 + OutageRule.firstDeadline(T), T));
    }

    @Test public void reconnectingInTimeEndsTheOutage() {
        long n = rule.suspended(false, 0, T);

        rule.answered(n, A, true);
        assertEquals(Outage.DECIDING, rule.ended());
        assertEquals(Verdict.NONE, rule.decide(PEERS, T, T));
        assertEquals(Outage.CONNECTED, rule.state());
    }

    /** The quorum is back and a peer reconnected before this node: half a timeout from then, not more. */
    @Test public void aFrozenServerIsCutOffHalfATimeoutAfterAPeerReachesZooKeeperAgain() {
        long n = rule.suspended(false, 0, T);

        rule.answered(n, A, false);
        rule.answered(n, B, false);
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 100, T));
        rule.answered(n, A, true);
        rule.servingSeen(20_000);
        assertEquals(Verdict.PEER_BACK, rule.decide(PEERS, 20_000, T));
        assertEquals(Verdict.NONE, rule.decide(PEERS, 20_000 + T / 2 - 1, T));
        assertEquals("no extension after a peer is back", Verdict.CUT_OFF, rule.decide(PEERS, 20_000 + T / 2, T));
    }

    @Test public void answersOfAnEarlierOutageAreStale() {
        long first = rule.suspended(false, 0, T);

        rule.ended();

        long second = rule.suspended(false, 10_000, T);

        rule.answered(first, A, false);
        rule.answered(first, B, false);
        assertEquals(Verdict.NONE, rule.decide(PEERS, 10_100, T));
        rule.answered(second, A, false);
        rule.answered(second, B, false);
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 10_200, T));
    }

    @Test public void aSecondSuspensionDuringAnOutageIsNoNewOutage() {
        assertEquals(1, rule.suspended(false, 0, T));
        assertEquals(0, rule.suspended(false, 100, T));
        assertEquals(0, rule.startedAt());
    }

    @Test public void theTalliersVerdictThatAllLostFreezes() {
        long n = rule.suspended(false, 0, T);

        rule.verdict(n, true, null);
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 100, T));
    }

    @Test public void theTalliersVerdictThatOneReachesCutsOffAtTheDeadline() {
        long n = rule.suspended(false, 0, T);

        rule.verdict(n, false, A);
        assertEquals(Verdict.NONE, rule.decide(PEERS, OutageRule.firstDeadline(T) - 1, T));
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, OutageRule.firstDeadline(T), T));
    }

    @Test public void aVerdictOfAnEarlierOutageDoesNotCount() {
        long first = rule.suspended(false, 0, T);

        rule.ended();

        rule.suspended(false, 1_000, T);
        rule.verdict(first, true, null);
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, 1_000 + OutageRule.firstDeadline(T), T));
    }

    @Test public void aFrozenServerToldThatOneIsBackIsCutOffHalfATimeoutLater() {
        long n = rule.suspended(false, 0, T);

        rule.verdict(n, true, null);
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 100, T));
        rule.verdict(n, false, B);
        assertEquals(Verdict.PEER_BACK, rule.decide(PEERS, 5_000, T));
        assertEquals(Verdict.NONE, rule.decide(PEERS, 5_000 + T / 2 - 1, T));
        assertEquals(Verdict.CUT_OFF, rule.decide(PEERS, 5_000 + T / 2, T));
    }

    @Test public void aLaterVerdictReplacesOneThatNamedAServerReaching() {
        long n = rule.suspended(false, 0, T);

        rule.verdict(n, false, A); // A's news from before this outage: it reached ZooKeeper.
        assertEquals(Verdict.NONE, rule.decide(PEERS, 100, T));
        rule.verdict(n, true, null); // A has reported since that it lost it too.
        assertEquals(Verdict.FROZE, rule.decide(PEERS, 600, T));
    }
}
