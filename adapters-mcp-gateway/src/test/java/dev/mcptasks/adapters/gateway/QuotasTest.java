package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.ports.repository.TaskQuery;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotasTest {
    private static final String ALICE = "alice";
    private static final String BOB = "bob";

    private static JsonNode send(FrontHarness front, String principal) {
        return front.send(principal, new RecordingSession("s-" + principal),
                front.request("tools/call", "{'name':'alpha__echo','task':{}}"));
    }

    @Test
    void aPrincipalAtItsConcurrentTaskQuotaIsToldToRetryAndNothingIsStored() {
        FrontHarness front = new FrontHarness(new Quotas(Quotas.Limit.UNLIMITED,
                Map.of(ALICE, new Quotas.Limit(2, null))));
        assertThat(send(front, ALICE).has("result")).isTrue();
        assertThat(send(front, ALICE).has("result")).isTrue();

        JsonNode refused = send(front, ALICE).path("error");
        assertThat(refused.path("code").asInt()).isEqualTo(QuotaGate.QUOTA_EXCEEDED);
        assertThat(refused.path("message").asText()).startsWith("Quota exceeded: principal 'alice' has 2 tasks not"
                + " yet ended (gateway.quotas concurrentTasks 2); retry after 1 s");
        assertThat(refused.path("data").path("quota").asText()).isEqualTo("concurrentTasks");
        assertThat(refused.path("data").path("retryAfterSeconds").asInt()).isEqualTo(1);
        assertThat(front.repo.list(TaskQuery.all(10))).hasSize(2);

        // another principal is not held by alice's quota
        assertThat(send(front, BOB).has("result")).isTrue();

        // once one of alice's tasks ended, she may call again
        String first = front.repo.list(TaskQuery.all(10)).stream()
                .filter(row -> row.definition().principal().equals(ALICE)).findFirst().orElseThrow().id().value();
        front.created(first, FrontHarness.V2025);
        front.polled(first, FrontHarness.completed("{'content':[]}"));
        assertThat(send(front, ALICE).has("result")).isTrue();
    }

    @Test
    void callsPerMinuteRefillEvenlyAndTheErrorSaysWhenToRetry() {
        FrontHarness front = new FrontHarness(new Quotas(new Quotas.Limit(null, 3), Map.of()));
        for (int i = 0; i < 3; i++) {
            assertThat(send(front, ALICE).has("result")).as("call %s", i).isTrue();
        }
        JsonNode refused = send(front, ALICE).path("error");
        assertThat(refused.path("code").asInt()).isEqualTo(QuotaGate.QUOTA_EXCEEDED);
        assertThat(refused.path("data").path("quota").asText()).isEqualTo("callsPerMinute");
        assertThat(refused.path("data").path("retryAfterSeconds").asInt()).isEqualTo(20);
        assertThat(send(front, BOB).has("result")).as("each principal has its own bucket").isTrue();

        front.clock.advance(Duration.ofSeconds(20));
        assertThat(send(front, ALICE).has("result")).isTrue();
        assertThat(send(front, ALICE).has("error")).isTrue();
    }
}
