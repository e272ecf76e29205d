package dev.mcptasks.gateway;

import static dev.mcptasks.gateway.FrontHarness.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many plain calls from several client threads, handled on a real pool: each answers its own task's result. */
class ConcurrentCallsTest {
    private static final int CLIENTS = 4;
    private static final int CALLS_EACH = 25;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);

    @AfterEach
    void stop() {
        pool.shutdownNow();
        clients.shutdownNow();
    }

    @Test
    void everyBlockedCallAnswersItsOwnTask() throws Exception {
        FrontHarness front = new FrontHarness(repo -> repo, pool);
        RecordingSession session = new RecordingSession("s-1");
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<CompletableFuture<Optional<ObjectNode>>>>> sent = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            sent.add(clients.submit(() -> {
                start.await();
                List<CompletableFuture<Optional<ObjectNode>>> calls = new ArrayList<>();
                for (int i = 0; i < CALLS_EACH; i++) {
                    calls.add(front.dispatch(ALICE, session, front.request("tools/call", "{'name':'alpha__echo'}")));
                }
                return calls;
            }));
        }
        start.countDown();
        List<CompletableFuture<Optional<ObjectNode>>> calls = new ArrayList<>();
        for (Future<List<CompletableFuture<Optional<ObjectNode>>>> client : sent) {
            calls.addAll(client.get());
        }
        int total = CLIENTS * CALLS_EACH;
        Eventually.until("every call persisted and waiting", Duration.ofSeconds(20),
                () -> front.door.watching() == total, () -> {});

        for (TaskRecord row : front.repo.list(TaskQuery.all(1000))) {
            String id = row.id().value();
            front.created(id, FrontHarness.V2025);
            front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'" + id + "'}]}"));
        }
        Eventually.until("every call answered", Duration.ofSeconds(20),
                () -> calls.stream().allMatch(CompletableFuture::isDone), front::tick);

        for (CompletableFuture<Optional<ObjectNode>> call : calls) {
            ObjectNode result = (ObjectNode) FrontHarness.answered(call).get("result");
            String id = result.path("_meta").path(LegacyFront.RELATED_TASK).path("taskId").asText();
            assertThat(result.path("content").get(0).path("text").asText()).isEqualTo(id);
        }
        assertThat(calls.stream().map(call -> call.join().orElseThrow().path("result").path("_meta")
                .path(LegacyFront.RELATED_TASK).path("taskId").asText()).distinct()).hasSize(total);
        Eventually.until("no waits left", Duration.ofSeconds(20), () -> front.door.watching() == 0, () -> {});
    }
}
