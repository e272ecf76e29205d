package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainedAnswersTest {
    private static final String SIX_MB = "{\"result\":\"" + "x".repeat(6 * 1024 * 1024) + "\"}";

    @Test
    void abandonedAnswerStreamsKeepNoMoreThanTheBudgetOldestLetGoFirst() {
        RetainedAnswers budget = new RetainedAnswers(RetainedAnswers.DEFAULT_BUDGET);
        List<EventStream> streams = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            // a client asked, left, and the answer came with nobody attached
            EventStream stream = EventStream.resumable(i, 1000, budget);
            stream.finish(SIX_MB);
            streams.add(stream);
            assertThat(budget.kept()).isLessThanOrEqualTo(RetainedAnswers.DEFAULT_BUDGET);
        }

        assertThat(streams.get(99).resumable()).as("the newest is kept").isTrue();
        assertThat(streams.get(98).resumable()).isTrue();
        assertThat(streams.subList(0, 98)).noneMatch(EventStream::resumable);
        assertThat(budget.kept()).isBetween(2L * SIX_MB.length(), RetainedAnswers.DEFAULT_BUDGET);
    }

    @Test
    void smallAnswersAreAllKeptAndAForgottenStreamIsNoLongerCharged() {
        RetainedAnswers budget = new RetainedAnswers(RetainedAnswers.DEFAULT_BUDGET);
        EventStream first = EventStream.resumable(1, 1000, budget);
        EventStream second = EventStream.resumable(2, 1000, budget);
        first.finish("{\"result\":{}}");
        second.finish("{\"result\":{}}");
        long both = budget.kept();
        assertThat(first.resumable()).isTrue();
        assertThat(second.resumable()).isTrue();

        first.forgotten();
        assertThat(budget.kept()).isLessThan(both).isPositive();
        second.forgotten();
        assertThat(budget.kept()).isZero();
        second.forgotten();
        assertThat(budget.kept()).as("idempotent").isZero();
    }
}
