package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.InputRound;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The native tasks driver on the 2026-07-28 generation (the tasks extension), scripted on the in-memory server. */
class NativeTasksDriver2026Test {
    private static final String V2 = "2026-07-28";
    private static final String TASK = "\"taskId\":\"r1\",\"createdAt\":\"2026-12-02T15:43:59.665Z\","
            + "\"lastUpdatedAt\":\"2026-12-02T15:43:59.665Z\",\"ttlMs\":600000,\"pollIntervalMs\":300";
    private static final String RESULT = "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}";

    private final FakeServer server = new FakeServer();
    private final McpSessions sessions = new McpSessions(
            List.of(new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(5), false)), List.of(server),
            new ManualClock(), "test");
    private final NativeTasksDriver driver = new NativeTasksDriver(sessions);
    private final RemoteTaskRef ref = new RemoteTaskRef(TaskId.of("t1"), "fake", "work", "r1", V2);

    NativeTasksDriver2026Test() {
        server.on("server/discover", request -> json(GenerationProbeTest.DISCOVER));
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"work\"}],\"resultType\":\"complete\"}"));
    }

    @AfterEach
    void close() {
        sessions.close();
    }

    private static SubmitCall submit() {
        return new SubmitCall(TaskId.of("t1"), "fake", "work", "{\"a\":1}", 1000L);
    }

    private void toolCall(String answer) {
        server.on("tools/call", request -> json(answer));
    }

    private void taskGet(String status, String extra) {
        server.on("tasks/get", request -> json("{" + TASK + ",\"status\":\"" + status + "\"" + extra
                + ",\"resultType\":\"complete\"}"));
    }

    private static void invalidParams(FakeServer server, String method, String message) {
        server.on(method, (transport, request) -> {
            throw new FakeServer.RpcError(-32602, message);
        });
    }

    private JsonNode lastParams(String method) {
        return server.last().lastRequest(method).path("params");
    }

    @Test
    void createSendsAPlainToolCallWithTheEnvelopeAndReadsTheFlatTask() throws Exception {
        toolCall("{\"content\":[],\"resultType\":\"task\"," + TASK + ",\"status\":\"working\","
                + "\"statusMessage\":\"step 1/3\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{}}}");

        SubmitResult created = await(driver.submit(submit()));

        JsonNode sent = lastParams("tools/call");
        assertThat(sent.path("name").asText()).isEqualTo("work");
        assertThat(sent.path("arguments")).isEqualTo(json("{\"a\":1}"));
        assertThat(sent.has("task")).isFalse();
        assertThat(sent.at("/_meta/io.modelcontextprotocol~1protocolVersion").asText()).isEqualTo(V2);
        assertThat(created.protocolVersion()).isEqualTo(V2);
        assertThat(created.createdTask()).isTrue();
        assertThat(created.processLocal()).isFalse();
        RemoteTaskSnapshot snapshot = created.snapshot();
        assertThat(snapshot.remoteTaskId()).isEqualTo("r1");
        assertThat(snapshot.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(snapshot.statusMessage()).isEqualTo("step 1/3");
        assertThat(snapshot.remoteTtlMs()).isEqualTo(600_000L);
        assertThat(snapshot.pollAfter()).isEqualTo(Duration.ofMillis(300));
        assertThat(server.initializations).hasValue(0);
    }

    @Test
    void everyRequestCarriesTheEnvelope() throws Exception {
        toolCall("{\"resultType\":\"task\"," + TASK + ",\"status\":\"working\"}");
        taskGet("working", "");
        server.on("tasks/cancel", request -> json("{\"resultType\":\"complete\"}"));
        server.on("tasks/update", request -> json("{\"resultType\":\"complete\"}"));

        await(driver.submit(submit()));
        await(driver.status(ref));
        await(driver.cancel(ref));
        await(driver.answer(ref, "{\"k\":{\"action\":\"accept\"}}", () -> true));

        List<JsonNode> sent = server.last().sent;
        assertThat(sent).extracting(m -> m.path("method").asText()).containsExactly("server/discover", "tools/list",
                "tools/call", "tasks/get", "tasks/cancel", "tasks/get", "tasks/update");
        for (JsonNode request : sent) {
            JsonNode meta = request.path("params").path("_meta");
            assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asText()).isEqualTo(V2);
            assertThat(meta.path("io.modelcontextprotocol/clientCapabilities").path("extensions")
                    .has("io.modelcontextprotocol/tasks")).isTrue();
            assertThat(meta.path("io.modelcontextprotocol/clientInfo").path("name").asText()).isEqualTo("mcp-tasks");
        }
    }

    @Test
    void aCallThatCompletesAtOnceIsATerminalSnapshotWithoutRemoteId() throws Exception {
        toolCall("{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"echo\"}]}");

        SubmitResult result = await(driver.submit(submit()));

        assertThat(result.createdTask()).isFalse();
        assertThat(result.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(result.snapshot().resultJson()).contains("echo");
        assertThat(result.protocolVersion()).isEqualTo(V2);
    }

    @Test
    void aToolErrorAtOnceIsFailedWithTheToolsText() throws Exception {
        toolCall("{\"resultType\":\"complete\",\"isError\":true,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"quota exceeded\"}]}");

        RemoteTaskSnapshot snapshot = await(driver.submit(submit())).snapshot();

        assertThat(snapshot.remoteTaskId()).isNull();
        assertThat(snapshot.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(snapshot.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(snapshot.error()).isEqualTo("quota exceeded");
        assertThat(snapshot.resultJson()).contains("\"isError\":true");
    }

    @Test
    void anInputRoundBeforeAnyTaskCarriesTheRequestsAndTheState() throws Exception {
        toolCall("{\"resultType\":\"input_required\",\"inputRequests\":{\"approve\":{\"method\":\"elicitation/create\","
                + "\"params\":{\"mode\":\"form\",\"message\":\"Run it?\"}}},\"requestState\":\"round-1\"}");

        SubmitResult round = await(driver.submit(submit()));

        assertThat(round.isInputRound()).isTrue();
        assertThat(round.requestState()).isEqualTo("round-1");
        assertThat(json(round.snapshot().inputRequiredJson()).path("approve").path("method").asText())
                .isEqualTo("elicitation/create");
    }

    @Test
    void theRepeatedCallCarriesTheAnswersAndTheStateAndThenCreatesTheTask() throws Exception {
        toolCall("{\"resultType\":\"task\"," + TASK + ",\"status\":\"working\"}");
        SubmitCall again = new SubmitCall(TaskId.of("t1"), "fake", "work", "{\"a\":1}", 1000L,
                new InputRound("round-1", "{\"approve\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}"));

        SubmitResult created = await(driver.submit(again));

        JsonNode sent = lastParams("tools/call");
        assertThat(sent.path("inputResponses")).isEqualTo(
                json("{\"approve\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}"));
        assertThat(sent.path("requestState").asText()).isEqualTo("round-1");
        assertThat(sent.path("arguments")).isEqualTo(json("{\"a\":1}"));
        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
    }

    @Test
    void aMissingOrUnknownResultTypeIsAProtocolError() {
        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"no discriminator\"}]}");
        RemoteCallException missing = remoteFailure(driver.submit(submit()));
        assertThat(missing.failure()).isEqualTo(RemoteFailure.PROTOCOL);
        assertThat(missing).hasMessageContaining("without a resultType");

        toolCall("{\"resultType\":\"later\"}");
        RemoteCallException unknown = remoteFailure(driver.submit(submit()));
        assertThat(unknown.failure()).isEqualTo(RemoteFailure.PROTOCOL);
        assertThat(unknown).hasMessageContaining("'later'");
    }

    @Test
    void aMissingClientCapabilityIsRefusedNamingIt() {
        server.on("tools/call", (transport, request) -> {
            throw new FakeServer.RpcError(-32021, "Missing required client capability",
                    json("{\"requiredCapabilities\":{\"sampling\":{}}}"));
        });
        RemoteCallException refused = remoteFailure(driver.submit(submit()));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("{\"sampling\":{}}").hasMessageContaining("-32021");
    }

    @Test
    void anUnsupportedVersionIsRefusedNamingBothAndAHeaderMismatchIsAProtocolError() {
        server.on("tools/call", (transport, request) -> {
            throw new FakeServer.RpcError(-32022, "Unsupported protocol version",
                    json("{\"supported\":[\"2027-01-01\"],\"requested\":\"2026-07-28\"}"));
        });
        RemoteCallException version = remoteFailure(driver.submit(submit()));
        assertThat(version.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(version).hasMessageContaining("[\"2027-01-01\"]").hasMessageContaining("2026-07-28");

        server.on("tools/call", (transport, request) -> {
            throw new FakeServer.RpcError(-32020, "Bad Request: the request headers and body disagree",
                    json("{\"mismatch\":{\"header\":\"Mcp-Name\"}}"));
        });
        RemoteCallException mismatch = remoteFailure(driver.submit(submit()));
        assertThat(mismatch.failure()).isEqualTo(RemoteFailure.PROTOCOL);
        assertThat(mismatch).hasMessageContaining("Mcp-Name");
    }

    @Test
    void aServerWithoutTheTasksExtensionIsCalledDirectlyAndItsResultCompletesTheTask() throws Exception {
        server.on("server/discover", request -> json("{\"supportedVersions\":[\"2026-07-28\"],"
                + "\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\"}"));
        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}],\"resultType\":\"complete\"}");

        SubmitResult done = await(driver.submit(submit()));

        assertThat(done.createdTask()).isFalse();
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.snapshot().resultJson()).contains("\"text\":\"done\"");
        assertThat(lastParams("tools/call").has("task")).isFalse();
    }

    @Test
    void callModeTaskRefusesAServerWithoutTheTasksExtensionBeforeSending() {
        server.on("server/discover", request -> json("{\"supportedVersions\":[\"2026-07-28\"],"
                + "\"capabilities\":{\"tools\":{}},\"resultType\":\"complete\"}"));
        McpSessions taskOnly = new McpSessions(List.of(new McpServerSettings(FakeServer.spec(),
                Duration.ofSeconds(5), false).withCallModes(CallMode.TASK, Map.of())), List.of(server),
                new ManualClock(), "test");
        try {
            RemoteCallException refused = remoteFailure(new NativeTasksDriver(taskOnly).submit(submit()));
            assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
            assertThat(refused).hasMessageContaining("does not offer the tasks extension")
                    .hasMessageContaining("callMode task");
            assertThat(server.last().sent("tools/call")).isEmpty();
        } finally {
            taskOnly.close();
        }
    }

    @Test
    void outsideCallModeTaskTheCallIsBoundedByTheDirectCallTimeout() throws Exception {
        ManualClock clock = new ManualClock();
        McpSessions bounded = new McpSessions(List.of(new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(5),
                false, null, Duration.ofSeconds(100), CallMode.AUTO, Map.of())), List.of(server), clock, "test");
        server.on("tools/call", (transport, request) -> null);
        try {
            CompletableFuture<SubmitResult> submit = new NativeTasksDriver(bounded).submit(submit());
            TaskPeerScript.eventually(() -> !server.transports.isEmpty() && !server.last().sent("tools/call")
                    .isEmpty(), "the call was sent");
            clock.advance(Duration.ofSeconds(10));
            assertThat(submit).isNotDone();
            clock.advance(Duration.ofSeconds(100));
            assertThat(remoteFailure(submit).failure()).isEqualTo(RemoteFailure.TRANSIENT);
        } finally {
            bounded.close();
        }
    }

    @Test
    void anUnknownToolIsRefusedWithoutTaskSupportGating() {
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"other\"}]}"));
        RemoteCallException refused = remoteFailure(driver.submit(submit()));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("has no tool 'work'");
    }

    @Test
    void aCompletedTaskCarriesItsInlineResultWithOrWithoutItsOwnResultType() throws Exception {
        taskGet("completed", ",\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");
        RemoteTaskSnapshot embedded = await(driver.status(ref));
        assertThat(embedded.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(embedded.resultJson()).contains("done");
        assertThat(embedded.remoteTtlMs()).isEqualTo(600_000L);
        assertThat(embedded.pollAfter()).isEqualTo(Duration.ofMillis(300));

        taskGet("completed", ",\"result\":" + RESULT);
        RemoteTaskSnapshot bare = await(driver.status(ref));
        assertThat(bare.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(json(bare.resultJson())).isEqualTo(json(RESULT));
        assertThat(bare.error()).isNull();
        assertThat(server.last().sent("tasks/result")).isEmpty();
    }

    @Test
    void theSepsResultTypeTaskOnTasksGetIsReadToo() throws Exception {
        server.on("tasks/get", request -> json("{" + TASK + ",\"status\":\"working\",\"resultType\":\"task\"}"));
        assertThat(await(driver.status(ref)).status()).isEqualTo(TaskStatus.WORKING);
    }

    @Test
    void aToolErrorInACompletedTaskIsFailedKeepingTextAndResult() throws Exception {
        taskGet("completed", ",\"statusMessage\":\"tool said no\",\"result\":{\"isError\":true,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"upstream 503\"}]}");
        RemoteTaskSnapshot snapshot = await(driver.status(ref));
        assertThat(snapshot.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(snapshot.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(snapshot.error()).isEqualTo("upstream 503");
        assertThat(snapshot.statusMessage()).isEqualTo("tool said no");
        assertThat(snapshot.resultJson()).contains("\"isError\":true");
    }

    @Test
    void aFailedTaskCarriesItsInlineError() throws Exception {
        taskGet("failed", ",\"statusMessage\":\"Tool execution failed\",\"error\":{\"code\":-32603,"
                + "\"message\":\"API rate limit exceeded\"}");
        RemoteTaskSnapshot snapshot = await(driver.status(ref));
        assertThat(snapshot.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(snapshot.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(snapshot.error()).isEqualTo("error -32603: API rate limit exceeded");
    }

    @Test
    void aTaskWaitingForInputCarriesItsInputRequests() throws Exception {
        String requests = "{\"confirm-e260\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
                + "\"message\":\"Deploy to prod?\",\"requestedSchema\":{\"type\":\"object\"}}}}";
        taskGet("input_required", ",\"inputRequests\":" + requests);
        RemoteTaskSnapshot snapshot = await(driver.status(ref));
        assertThat(snapshot.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(json(snapshot.inputRequiredJson())).isEqualTo(json(requests));
    }

    @Test
    void answersGoOutAsTasksUpdate() throws Exception {
        server.on("tasks/update", request -> json("{\"resultType\":\"complete\"}"));
        await(driver.answer(ref, "{\"confirm-e260\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}",
                () -> true));
        JsonNode sent = lastParams("tasks/update");
        assertThat(sent.path("taskId").asText()).isEqualTo("r1");
        assertThat(sent.path("inputResponses")).isEqualTo(
                json("{\"confirm-e260\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}"));
    }

    @Test
    void anAnswerToAnUnknownTaskMeansItIsLost() {
        invalidParams(server, "tasks/update", "Failed to retrieve task: Task not found");
        RemoteCallException lost = remoteFailure(driver.answer(ref, "{}", () -> true));
        assertThat(lost.failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void unknownOrExpiredTasksAreLost() {
        invalidParams(server, "tasks/get", "Failed to retrieve task: Task has expired");
        RemoteCallException lost = remoteFailure(driver.status(ref));
        assertThat(lost.failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(lost).hasMessageContaining("Task has expired");

        invalidParams(server, "tasks/cancel", "Failed to retrieve task: Task not found");
        assertThat(remoteFailure(driver.cancel(ref)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void aWonCancelIsAcknowledgedThenReadBack() throws Exception {
        server.on("tasks/cancel", request -> json("{\"resultType\":\"complete\"}"));
        taskGet("cancelled", "");
        RemoteTaskSnapshot snapshot = await(driver.cancel(ref));
        assertThat(snapshot.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(lastParams("tasks/cancel").path("taskId").asText()).isEqualTo("r1");
    }

    @Test
    void aCancelThatLostTheRaceReturnsWhatTheTaskBecame() throws Exception {
        server.on("tasks/cancel", request -> json("{\"resultType\":\"complete\"}"));
        taskGet("completed", ",\"result\":" + RESULT);
        RemoteTaskSnapshot snapshot = await(driver.cancel(ref));
        assertThat(snapshot.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(snapshot.resultJson()).contains("done");

        // still working after the ack: returned as is, the runtime keeps tracking it
        taskGet("working", "");
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.WORKING);
    }

    @Test
    void aRefusedCancelOfATerminalTaskReturnsThatStatus() throws Exception {
        invalidParams(server, "tasks/cancel", "Cannot cancel task in terminal status");
        taskGet("completed", ",\"result\":" + RESULT);
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void theReadAfterTheCancelAsksThePermitFirst() throws Exception {
        server.on("tasks/cancel", request -> json("{\"resultType\":\"complete\"}"));
        taskGet("cancelled", "");
        await(driver.status(ref));
        AtomicInteger asked = new AtomicInteger();
        // the first ask is the cancel's own; the second, before tasks/get, is refused
        RemoteCallException refused = remoteFailure(driver.cancel(ref, () -> asked.incrementAndGet() < 2));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.PERMIT_REFUSED);
        assertThat(server.last().sent("tasks/get")).hasSize(1);
    }

    @Test
    void v2025TasksCannotTakeAnswersAndNothingIsSent() {
        RemoteTaskRef v2025 = new RemoteTaskRef(TaskId.of("t0"), "fake", "work", "old", "2025-11-25");
        RemoteCallException unsupported = remoteFailure(driver.answer(v2025, "{}", () -> true));
        assertThat(unsupported.failure()).isEqualTo(RemoteFailure.UNSUPPORTED);
        assertThat(unsupported).hasMessageContaining("tasks/result stream");
        assertThat(server.transports).isEmpty();
    }

    @Test
    void onADualServer2025TasksStay2025WhileNewTasksGo2026() throws Exception {
        // the dual server: server/discover for 2026 clients, initialize and the 2025 utility for the others
        AtomicBoolean v2025Call = new AtomicBoolean();
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"work\",\"execution\":"
                + "{\"taskSupport\":\"optional\"}}]}"));
        server.on("tools/call", request -> {
            boolean v2026 = request.path("params").path("_meta").has("io.modelcontextprotocol/protocolVersion");
            v2025Call.set(!v2026);
            return v2026 ? json("{\"resultType\":\"task\"," + TASK + ",\"status\":\"working\"}")
                    : json("{\"task\":{\"taskId\":\"old\",\"status\":\"working\",\"ttl\":1000}}");
        });
        server.on("tasks/get", request -> request.path("params").has("_meta")
                ? json("{" + TASK + ",\"status\":\"working\",\"resultType\":\"complete\"}")
                : json("{\"taskId\":\"old\",\"status\":\"completed\"}"));
        server.on("tasks/result", request -> json(RESULT));
        RemoteTaskRef v2025 = new RemoteTaskRef(TaskId.of("t0"), "fake", "work", "old", "2025-11-25");

        SubmitResult created = await(driver.submit(submit()));
        RemoteTaskSnapshot old = await(driver.status(v2025));
        RemoteTaskSnapshot fresh = await(driver.status(ref));

        assertThat(created.protocolVersion()).isEqualTo(V2);
        assertThat(v2025Call).isFalse();
        assertThat(old.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(old.resultJson()).contains("done");
        assertThat(fresh.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(server.transports).hasSize(2);
        FakeTransport v2026 = server.transports.get(0);
        FakeTransport pinned = server.transports.get(1);
        assertThat(v2026.sent).extracting(m -> m.path("method").asText()).containsExactly("server/discover",
                "tools/list", "tools/call", "tasks/get");
        assertThat(pinned.sent).extracting(m -> m.path("method").asText()).containsExactly("initialize",
                "notifications/initialized", "tasks/get", "tasks/result");
        assertThat(pinned.lastRequest("tasks/get").path("params").has("_meta")).isFalse();
        assertThat(sessions.session("fake").orElseThrow().generation())
                .contains(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
    }

    @Test
    void a2025ServerStillGetsThe2025SubmitAndItsTasksAre2025() throws Exception {
        server.handlers.remove("server/discover");
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"work\",\"execution\":"
                + "{\"taskSupport\":\"required\"}}]}"));
        server.on("tools/call", request -> json("{\"task\":{\"taskId\":\"old\",\"status\":\"working\"}}"));
        SubmitResult created = await(driver.submit(submit()));
        assertThat(created.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(lastParams("tools/call").path("task")).isEqualTo(json("{\"ttl\":1000}"));
        assertThat(lastParams("tools/call").has("_meta")).isFalse();
    }

    @Test
    void aTaskThatEndedBeforeItsCreateAnswerIsReadOnceForItsOutcome() throws Exception {
        toolCall("{\"content\":[],\"resultType\":\"task\"," + TASK + ",\"status\":\"completed\"}");
        taskGet("completed", ",\"result\":" + RESULT);

        SubmitResult created = await(driver.submit(submit()));

        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(created.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(created.snapshot().resultJson()).contains("done");
        assertThat(created.protocolVersion()).isEqualTo(V2);
    }

    @Test
    void aTaskThatAsksForInputAtOnceIsReadOnceForItsInputRequests() throws Exception {
        toolCall("{\"content\":[],\"resultType\":\"task\"," + TASK + ",\"status\":\"input_required\"}");
        taskGet("input_required", ",\"inputRequests\":{\"confirm-1\":{\"method\":\"elicitation/create\","
                + "\"params\":{\"mode\":\"form\",\"message\":\"Deploy?\"}}}");

        SubmitResult created = await(driver.submit(submit()));

        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(created.snapshot().status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(json(created.snapshot().inputRequiredJson()).path("confirm-1").path("method").asText())
                .isEqualTo("elicitation/create");
        assertThat(server.last().sent("tasks/get")).hasSize(1);
    }

    @Test
    void theOutcomeReadNeverFailsACreatedTask() throws Exception {
        toolCall("{\"resultType\":\"task\"," + TASK + ",\"status\":\"failed\",\"statusMessage\":\"boom\"}");
        invalidParams(server, "tasks/get", "Failed to retrieve task: Task has expired");
        SubmitResult read = await(driver.submit(submit()));
        assertThat(read.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(read.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(read.snapshot().error()).isEqualTo("boom");

        // the permit lapsed after the create: the created task is still reported, nothing more is sent
        taskGet("failed", ",\"error\":{\"code\":-32603,\"message\":\"boom\"}");
        int reads = server.last().sent("tasks/get").size();
        AtomicInteger asked = new AtomicInteger();
        SubmitResult unread = await(driver.submit(submit(), () -> asked.incrementAndGet() <= 3));
        assertThat(unread.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(unread.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(server.last().sent("tasks/get")).hasSize(reads);
    }
}
