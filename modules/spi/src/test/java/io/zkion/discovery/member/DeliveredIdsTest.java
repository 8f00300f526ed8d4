package io.zkion.discovery.member;

import java.util.UUID;
import io.zkion.discovery.CustomMessageTest;
import io.zkion.discovery.codec.CorruptPayloadException;
import org.apache.ignite.internal.managers.discovery.CustomMessageWrapper;
import org.apache.ignite.lang.IgniteUuid;
import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/** The ids a coordinator hands a joiner: the latest, in a form the joiner reads back; a corrupt list is named. */
public class DeliveredIdsTest {
    @Test public void theLatestIdsReachTheJoiner() {
        DeliveredIds coordinator = new DeliveredIds();
        UUID sender = UUID.randomUUID();

        assertNull("none delivered, none handed over", coordinator.recent());

        for (long i = 0; i < DeliveredIds.HANDED_TO_JOINER + 10; i++)
            assertTrue(coordinator.add(msg(sender, i)));

        byte[] recent = coordinator.recent();
        DeliveredIds joiner = new DeliveredIds();

        assertEquals(DeliveredIds.HANDED_TO_JOINER * 24, recent.length);
        joiner.seed(recent, "/root/joined/x");

        assertTrue("the latest is known", joiner.contains(msg(sender, DeliveredIds.HANDED_TO_JOINER + 9)));
        assertTrue("the oldest handed over is known", joiner.contains(msg(sender, 10)));
        assertFalse("older ones are not handed over", joiner.contains(msg(sender, 9)));
        assertFalse("a copy of a handed-over id counts as delivered", joiner.add(msg(sender, 100)));
        assertFalse("but not as delivered by the joiner, which owes its ack", joiner.deliveredHere(msg(sender, 100)));
        assertTrue(coordinator.deliveredHere(msg(sender, 100)));
    }

    @Test public void aCorruptListIsNamed() {
        try {
            new DeliveredIds().seed(new byte[25], "/root/joined/x");
            fail("a length that is no whole number of ids");
        }
        catch (CorruptPayloadException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("/root/joined/x") && e.getMessage().contains("25 bytes"));
        }
    }

    private static CustomMessageWrapper msg(UUID sender, long local) {
        return new CustomMessageWrapper(new Msg(new IgniteUuid(sender, local)));
    }

    /** A message with the id given. */
    private static final class Msg extends CustomMessageTest.TestMessage {
        private static final long serialVersionUID = 1L;

        private final IgniteUuid id;

        Msg(IgniteUuid id) {
            this.id = id;
        }

        @Override public IgniteUuid id() {
            return id;
        }
    }
}
