package io.zkion.discovery.engine;

import io.zkion.discovery.engine.ReachTally.Verdict;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.Test;

import static org.junit.Assert.assertEquals;

/** The tallier's count on a clock of its own: session timeout 6 s, a lost report fresh for 1.5 s. */
public class ReachTallyTest {
    private static final long T = 6_000;
    private static final long FRESH = T / 4;
    private static final UUID SELF = new UUID(0, 9);
    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);
    private static final UUID C = new UUID(0, 3);
    private static final Set<UUID> SERVERS = new HashSet<>(Arrays.asList(A, B, C));

    private final ReachTally tally = new ReachTally();

    private Verdict at(long now) {
        return tally.verdict(SELF, SERVERS, false, now, FRESH, T);
    }

    @Test public void allLostOnceEveryOtherServerSaidSo() {
        tally.reported(A, false, 1, 0);
        tally.reported(B, false, 1, 10);
        assertEquals(Verdict.UNDECIDED, at(20));
        tally.reported(C, false, 1, 30);
        assertEquals(Verdict.ALL_LOST, at(40));
    }

    @Test public void noOtherServerIsAllLost() {
        assertEquals(Verdict.ALL_LOST, tally.verdict(SELF, new HashSet<>(), false, 0, FRESH, T));
    }

    @Test public void oneThatReachesZooKeeperDecides() {
        tally.reported(A, false, 1, 0);
        tally.reported(B, false, 1, 0);
        tally.reported(C, true, 1, 0);
        assertEquals(Verdict.ONE_REACHES, at(10));
        assertEquals(C, tally.reaching());
    }

    @Test public void oneThatReachesCountsThoughTheTallierDoesNotKnowIt() {
        UUID stranger = new UUID(0, 77); // Joined before the tallier applied its join.

        for (UUID s : SERVERS)
            tally.reported(s, false, 1, 0);

        tally.reported(stranger, true, 1, 0);
        assertEquals(Verdict.ONE_REACHES, at(10));
        assertEquals(stranger, tally.reaching());
    }

    @Test public void theTallierThatReachesZooKeeperDecides() {
        for (UUID s : SERVERS)
            tally.reported(s, false, 1, 0);

        assertEquals(Verdict.ONE_REACHES, tally.verdict(SELF, SERVERS, true, 10, FRESH, T));
        assertEquals(SELF, tally.reaching());
    }

    @Test public void aLostReportGoesStale() {
        for (UUID s : SERVERS)
            tally.reported(s, false, 1, 0);

        assertEquals(Verdict.ALL_LOST, at(FRESH));
        assertEquals("not heard again: it may be back, its word lost", Verdict.UNDECIDED, at(FRESH + 1));
        tally.reported(A, false, 2, FRESH + 1);
        tally.reported(B, false, 2, FRESH + 1);
        tally.reported(C, false, 2, FRESH + 1);
        assertEquals(Verdict.ALL_LOST, at(FRESH + 2));
    }

    @Test public void aReportThatZooKeeperIsReachedCountsForASessionTimeout() {
        tally.reported(A, true, 1, 0);
        tally.reported(B, false, 1, T);
        tally.reported(C, false, 1, T);
        assertEquals(Verdict.ONE_REACHES, at(T));
        tally.reported(A, false, 2, T + 1);
        assertEquals("A lost it again: its later report counts", Verdict.ALL_LOST, at(T + 1));
    }

    @Test public void aLateReportDoesNotOverrideANewerOne() {
        tally.reported(B, false, 1, 0);
        tally.reported(C, false, 1, 0);
        tally.reported(A, true, 5, 0);
        tally.reported(A, false, 4, 10); // Sent before, arrived after.
        assertEquals(Verdict.ONE_REACHES, at(20));
    }

    @Test public void serversGoneFromTheTopologyAreForgotten() {
        tally.reported(A, true, 1, 0);
        tally.forget(new HashSet<>(Arrays.asList(B, C)), T + 1, T);
        tally.reported(B, false, 1, T + 1);
        tally.reported(C, false, 1, T + 1);
        assertEquals(Verdict.ALL_LOST, tally.verdict(SELF, new HashSet<>(Arrays.asList(B, C)), false, T + 2, FRESH, T));
    }
}
