package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The seeded mix: on the tasks extension, every second slow-cancel task lets its cancel lose the race. */
class TaskPlanTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void onTheTasksExtensionEverySecondSlowCancelIsIgnoredAndEndsSoonAfterItsAcknowledgement() throws Exception {
        List<TaskPlan> v2025 = TaskPlan.mix(new Random(7), 200, 28_000, 5, false);
        List<TaskPlan> v2026 = TaskPlan.mix(new Random(7), 200, 28_000, 5, true);

        assertThat(v2025).noneMatch(plan -> plan.kind().equals("slow-cancel-ignored")
                || plan.arguments().contains("cancelIgnored"));
        long slowCancels = v2025.stream().filter(plan -> plan.kind().equals("slow-cancel")).count();
        assertThat(v2026.stream().filter(plan -> plan.kind().equals("slow-cancel-ignored")).count())
                .isEqualTo(slowCancels / 2).isPositive();
        for (int i = 0; i < v2025.size(); i++) {
            TaskPlan before = v2025.get(i);
            TaskPlan after = v2026.get(i);
            // the same seed gives the same submits and cancels in both generations
            assertThat(after.key()).isEqualTo(before.key());
            assertThat(after.submitAtMs()).isEqualTo(before.submitAtMs());
            assertThat(after.cancelAfterMs()).isEqualTo(before.cancelAfterMs());
            if (after.kind().equals("slow-cancel-ignored")) {
                JsonNode args = JSON.readTree(after.arguments());
                assertThat(args.path("cancelIgnored").asBoolean()).isTrue();
                // the acknowledgement leaves cancelDelayMs after the cancel; the task ends 3 s later
                assertThat(args.path("durationMs").asLong())
                        .isEqualTo(after.cancelAfterMs() + args.path("cancelDelayMs").asLong() + 3_000);
            } else {
                assertThat(after).isEqualTo(before);
            }
        }
    }
}
