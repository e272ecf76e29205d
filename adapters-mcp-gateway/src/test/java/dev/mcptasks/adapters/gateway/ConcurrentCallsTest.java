package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
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
            int client = c;
            sent.add(clients.submit(() -> {
                start.await();
                List<CompletableFuture<Optional<ObjectNode>>> calls = new ArrayList<>();
                for (int i = 0; i < CALLS_EACH; i++) {
                    calls.add(front.dispatch(ALICE, session, front.request("tools/call",
                            "{'name':'alpha__echo','arguments':{'n':" + (client * CALLS_EACH + i) + "}}")));
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
            // the result names the call's own argument: each call must get the answer of its own task
            String n = FrontHarness.json(row.definition().argumentsJson()).path("n").asText();
            front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'" + n + "'}]}"));
        }
        Eventually.until("every call answered", Duration.ofSeconds(20),
                () -> calls.stream().allMatch(CompletableFuture::isDone), front::tick);

        for (int k = 0; k < total; k++) {
            ObjectNode result = (ObjectNode) FrontHarness.answered(calls.get(k)).get("result");
            int client = k / CALLS_EACH;
            int i = k % CALLS_EACH;
            assertThat(result.path("content").get(0).path("text").asText())
                    .isEqualTo(String.valueOf(client * CALLS_EACH + i));
        }
        Eventually.until("no waits left", Duration.ofSeconds(20), () -> front.door.watching() == 0, () -> {});
    }
}
