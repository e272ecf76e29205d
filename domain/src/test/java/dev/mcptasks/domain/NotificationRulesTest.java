package dev.mcptasks.domain;

import static dev.mcptasks.domain.NotificationStatus.CLAIMED;
import static dev.mcptasks.domain.NotificationStatus.DEAD_LETTER;
import static dev.mcptasks.domain.NotificationStatus.DELIVERED;
import static dev.mcptasks.domain.NotificationStatus.DISPATCHED;
import static dev.mcptasks.domain.NotificationStatus.NONE;
import static dev.mcptasks.domain.NotificationStatus.PENDING;
import static dev.mcptasks.domain.NotificationStatus.RETRY;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NotificationRulesTest {

    @Test
    void aNewEventMakesAnIdleOutboxPending() {
        assertThat(NotificationRules.afterNewEvent(NONE)).isEqualTo(PENDING);
        assertThat(NotificationRules.afterNewEvent(DELIVERED)).isEqualTo(PENDING);
        assertThat(NotificationRules.afterNewEvent(DEAD_LETTER)).isEqualTo(PENDING);
    }

    @Test
    void aNewEventNeverDisturbsAnInFlightDelivery() {
        assertThat(NotificationRules.afterNewEvent(CLAIMED)).isEqualTo(CLAIMED);
        assertThat(NotificationRules.afterNewEvent(DISPATCHED)).isEqualTo(DISPATCHED);
        assertThat(NotificationRules.afterNewEvent(RETRY)).isEqualTo(RETRY);
    }

    @Test
    void onlyIdleOrRetryingRowsRebuildTheirFrozenEvent() {
        assertThat(NotificationRules.claimRebuilds(PENDING)).isTrue();
        assertThat(NotificationRules.claimRebuilds(RETRY)).isTrue();
        assertThat(NotificationRules.claimRebuilds(CLAIMED)).isFalse();
        assertThat(NotificationRules.claimRebuilds(DISPATCHED)).isFalse();
    }

    @Test
    void aRetryMovingToANewerVersionGetsAFreshBudget() {
        assertThat(NotificationRules.resetsBudget(3, 2)).isTrue();
        assertThat(NotificationRules.resetsBudget(2, 2)).isFalse();
    }

    @Test
    void aNewerVersionStaysPendingAfterDeliveryOrDeadLetter() {
        assertThat(NotificationRules.afterDelivered(3, 2)).isEqualTo(PENDING);
        assertThat(NotificationRules.afterDelivered(2, 2)).isEqualTo(DELIVERED);
        assertThat(NotificationRules.afterDeadLetter(3, 2)).isEqualTo(PENDING);
        assertThat(NotificationRules.afterDeadLetter(2, 2)).isEqualTo(DEAD_LETTER);
    }

    @Test
    void idempotencyKeyNamesTaskVersionAndAttempt() {
        assertThat(NotificationRules.idempotencyKey(TaskId.of("t9"), 4, 2)).isEqualTo("mcp-task:t9:4:2");
    }

    @Test
    void claimableStatuses() {
        assertThat(NotificationStatus.CLAIMABLE).containsExactlyInAnyOrder(PENDING, CLAIMED, DISPATCHED, RETRY);
        assertThat(NotificationStatus.fromWire("dead_letter")).isEqualTo(DEAD_LETTER);
    }
}
