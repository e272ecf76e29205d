package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A request id reused in a session, as the strict reference server journals it, is a violation; none is none. */
class RequestIdChecksTest {
    @Test
    void everyReusedIdIsAViolationAndInFlightOnesAreCountedApart() {
        ServerJournal journal = ServerJournal.parse(List.of(
                "{\"e\":\"session\",\"t\":1,\"session\":\"s-1\",\"client\":\"w1\"}",
                "{\"e\":\"reused_id\",\"t\":2,\"session\":\"s-1\",\"id\":\"7\",\"in_flight\":true}",
                "{\"e\":\"reused_id\",\"t\":3,\"session\":\"s-1\",\"id\":\"8\",\"in_flight\":false}"));

        CheckResult result = RequestIdChecks.check(journal);

        assertThat(result.violations()).hasSize(2).allMatch(v -> v.kind().equals("reused_request_id"));
        assertThat(result.figures()).containsEntry(RequestIdChecks.REUSED, 2)
                .containsEntry(RequestIdChecks.REUSED_IN_FLIGHT, 1);
    }

    @Test
    void aJournalWithoutReuseHasNoViolationAndReportsZero() {
        CheckResult result = RequestIdChecks.check(ServerJournal.parse(List.of(
                "{\"e\":\"session\",\"t\":1,\"session\":\"s-1\",\"client\":\"w1\"}")));

        assertThat(result.violations()).isEmpty();
        assertThat(result.figures()).containsEntry(RequestIdChecks.REUSED, 0);
    }
}
