package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static dev.mcptasks.ports.driver.SendPermit.ALWAYS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Direct calls: a tool the call mode does not run as a task is one plain {@code tools/call}, whose answer is the
 * submit's terminal outcome, bounded by the direct-call timeout. Scripted on the in-memory server (2025-11-25 unless
 * a test says otherwise).
 */
class DirectCallsTest {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration DIRECT_TIMEOUT = Duration.ofSeconds(100);
    private static final String TOOLS = "{\"tools\":["
            + "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},"
            + "{\"name\":\"forbidden\",\"execution\":{\"taskSupport\":\"forbidden\"}},"
            + "{\"name\":\"strange\",\"execution\":{\"taskSupport\":\"sometimes\"}},"
            + "{\"name\":\"optional\",\"execution\":{\"taskSupport\":\"optional\"}},"
            + "{\"name\":\"required\",\"execution\":{\"taskSupport\":\"required\"}}]}";
    private static final String TASK = "{\"task\":{\"taskId\":\"r1\",\"status\":\"working\",\"ttl\":null,"
            + "\"createdAt\":\"2026-12-02T11:29:08.492Z\",\"lastUpdatedAt\":\"2026-12-02T11:29:08.492Z\"}}";
    private static final String RESULT = "{\"content\":[{\"type\":\"text\",\"text\":\"hi back\"}]}";

    private final FakeServer server = new FakeServer();
    private final ManualClock clock = new ManualClock();
    private McpSessions sessions;

    DirectCallsTest() {
        server.on("tools/list", request -> json(TOOLS));
        // a task for a task-augmented call, the tool's result for a plain one
        server.on("tools/call", request -> json(request.path("params").has("task") ? TASK : RESULT));
    }

    @AfterEach
    void close() {
        if (sessions != null) {
            sessions.close();
        }
    }

    private NativeTasksDriver driver(CallMode mode, Map<String, CallMode> perTool) {
        McpServerSettings settings = new McpServerSettings(FakeServer.spec(), REQUEST_TIMEOUT, false, null,
                DIRECT_TIMEOUT, mode, perTool);
        sessions = new McpSessions(List.of(settings), List.of(server), clock, "test");
        return new NativeTasksDriver(sessions);
    }

    private NativeTasksDriver driver() {
        return driver(CallMode.AUTO, Map.of());
    }

    private static SubmitCall call(String tool) {
        return new SubmitCall(TaskId.of("t1"), "fake", tool, "{\"text\":\"hi\"}", 60_000L);
    }

    private List<JsonNode> toolCalls() {
        return server.last().sent("tools/call");
    }

    private boolean sentAsTask() {
        return server.last().lastRequest("tools/call").path("params").has("task");
    }

    @Test
    void aToolWithoutTaskSupportRunsAsOnePlainCallAndCompletesWithItsResult() throws Exception {
        SubmitResult done = await(driver().submit(call("echo")));

        JsonNode sent = server.last().lastRequest("tools/call").path("params");
        assertThat(sent.has("task")).isFalse();
        assertThat(sent.path("name").asText()).isEqualTo("echo");
        assertThat(sent.path("arguments")).isEqualTo(json("{\"text\":\"hi\"}"));
        assertThat(toolCalls()).hasSize(1);
        assertThat(done.createdTask()).isFalse();
        assertThat(done.processLocal()).isFalse();
        assertThat(done.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(json(done.snapshot().resultJson())).isEqualTo(json(RESULT));
        assertThat(done.snapshot().error()).isNull();
    }

    @Test
    void forbiddenAndUnknownTaskSupportAreCalledDirectly() throws Exception {
        NativeTasksDriver driver = driver();
        for (String tool : new String[] {"forbidden", "strange"}) {
            SubmitResult done = await(driver.submit(call(tool)));
            assertThat(sentAsTask()).as(tool).isFalse();
            assertThat(done.snapshot().status()).as(tool).isEqualTo(TaskStatus.COMPLETED);
        }
    }

    @Test
    void anOptionalToolIsATaskOnAServerWithTasksAndADirectCallOnAServerWithout() throws Exception {
        SubmitResult created = await(driver().submit(call("optional")));
        assertThat(sentAsTask()).isTrue();
        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
        sessions.close();

        server.capabilities = json("{\"tools\":{}}");
        SubmitResult direct = await(driver().submit(call("optional")));
        assertThat(sentAsTask()).isFalse();
        assertThat(direct.createdTask()).isFalse();
        assertThat(direct.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void anOptionalToolOnAnOlderProtocolVersionIsCalledDirectly() throws Exception {
        // SDK 1.32.2 advertises tasks even when it negotiates 2025-06-18: tasks need 2025-11-25
        server.version = "2025-06-18";
        SubmitResult direct = await(driver().submit(call("optional")));
        assertThat(sentAsTask()).isFalse();
        assertThat(direct.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(direct.protocolVersion()).isEqualTo("2025-06-18");
    }

    @Test
    void aRequiredToolOnAServerWithoutTasksIsRefusedWithNothingSent() {
        server.capabilities = json("{\"tools\":{}}");
        RemoteCallException refused = remoteFailure(driver().submit(call("required")));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("does not advertise tasks.requests.tools.call");
        assertThat(toolCalls()).isEmpty();
    }

    @Test
    void anIsErrorResultFailsTheTaskWithTheToolsText() throws Exception {
        server.on("tools/call", request -> json("{\"content\":[{\"type\":\"text\",\"text\":\"upstream 503\"}],"
                + "\"isError\":true}"));

        SubmitResult done = await(driver().submit(call("echo")));

        assertThat(done.createdTask()).isFalse();
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(done.snapshot().errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(done.snapshot().error()).isEqualTo("upstream 503");
        assertThat(done.snapshot().resultJson()).contains("\"isError\":true");
    }

    @Test
    void aJsonRpcErrorAnswerFailsTheTaskNamingTheError() throws Exception {
        server.on("tools/call", (transport, request) -> {
            throw new FakeServer.RpcError(-32603, "database exploded");
        });

        SubmitResult done = await(driver().submit(call("echo")));

        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(done.snapshot().errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(done.snapshot().error()).isEqualTo("tool echo failed with error -32603: database exploded");
        assertThat(done.snapshot().resultJson()).isNull();
    }

    @Test
    void anAnswerThatIsNotAnObjectFailsTheTaskAsAProtocolError() throws Exception {
        server.on("tools/call", request -> TextNode.valueOf("done"));

        SubmitResult done = await(driver().submit(call("echo")));

        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(done.snapshot().errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
        assertThat(done.snapshot().error()).contains("something other than a CallToolResult object");
    }

    @Test
    void aPlainCallAnsweredWithATaskAnywayIsPolledAsThatTask() throws Exception {
        server.on("tools/call", request -> json(TASK));

        SubmitResult created = await(driver().submit(call("echo")));

        assertThat(sentAsTask()).isFalse();
        assertThat(created.createdTask()).isTrue();
        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(created.snapshot().status()).isEqualTo(TaskStatus.WORKING);
    }

    @Test
    void theCallIsBoundedByTheDirectCallTimeoutNotTheRequestTimeout() throws Exception {
        server.on("tools/call", (transport, request) -> null);
        CompletableFuture<SubmitResult> submit = driver().submit(call("echo"));
        TaskPeerScript.eventually(() -> server.transports.size() == 1 && !toolCalls().isEmpty(),
                "the call was sent");
        String id = toolCalls().get(0).path("id").asText();

        clock.advance(REQUEST_TIMEOUT.multipliedBy(2));
        assertThat(submit).isNotDone();
        clock.advance(DIRECT_TIMEOUT);

        // it ran past the bound and was cancelled, and may have run: the failure names the bound, and the runtime
        // applies the server's submit policy to it
        RemoteCallException timedOut = remoteFailure(submit);
        assertThat(timedOut.failure()).isEqualTo(RemoteFailure.TIMED_OUT);
        assertThat(timedOut).hasMessageContaining("did not finish within 100 s (directCallTimeoutSeconds)");
        assertThat(server.last().sent("notifications/cancelled"))
                .anySatisfy(n -> assertThat(n.path("params").path("requestId").asText()).isEqualTo(id));
    }

    @Test
    void anAnswerOverTheMessageCapEndsTheCallAsAProtocolErrorNamingCapAndSize() throws Exception {
        server.on("tools/call", (transport, request) -> null);
        CompletableFuture<SubmitResult> submit = driver().submit(call("echo"));
        TaskPeerScript.eventually(() -> server.transports.size() == 1 && !toolCalls().isEmpty(),
                "the call was sent");
        String id = toolCalls().get(0).path("id").toString();

        server.last().report(new McpMessageTooLargeException("a message", 20_000_000L, false, 16_777_216,
                "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[", "]}}"));

        SubmitResult failed = await(submit);
        assertThat(failed.snapshot().status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.snapshot().errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
        assertThat(failed.snapshot().error()).contains("20000000 bytes").contains("16777216-byte message cap");
    }

    @Test
    void cancellingTheSubmitCancelsTheCallInFlight() throws Exception {
        server.on("tools/call", (transport, request) -> null);
        CompletableFuture<SubmitResult> submit = driver().submit(call("echo"));
        TaskPeerScript.eventually(() -> server.transports.size() == 1 && !toolCalls().isEmpty(),
                "the call was sent");
        String id = toolCalls().get(0).path("id").asText();

        submit.cancel(true);

        TaskPeerScript.eventually(() -> server.last().sent("notifications/cancelled").stream()
                .anyMatch(n -> n.path("params").path("requestId").asText().equals(id)), "the server was told");
        // the submit settles as cancelled once the request let go, which may be just after the notice went out
        TaskPeerScript.eventually(submit::isDone, "the submit settled");
        assertThat(submit).isCancelled();
    }

    @Test
    void theCallCarriesAProgressTokenAndItsProgressReachesTheObserverUntilItIsAnswered() throws Exception {
        server.on("tools/call", (transport, request) -> null);
        RecordingObserver observer = new RecordingObserver();
        CompletableFuture<SubmitResult> submit = driver().submit(call("echo"), ALWAYS, observer);
        TaskPeerScript.eventually(() -> server.transports.size() == 1 && !toolCalls().isEmpty(),
                "the call was sent");
        JsonNode sent = toolCalls().get(0);
        JsonNode token = sent.path("params").path("_meta").path("progressToken");
        assertThat(token.isTextual()).as("a progress token: %s", sent).isTrue();
        assertThat(observer.sent).isEqualTo(1);
        assertThat(sent.path("params").path("name").asText()).isEqualTo("echo");

        FakeTransport transport = server.last();
        transport.deliver(progress(token, "\"progress\":1,\"total\":3"));
        transport.deliver(progress(token, "\"progress\":2,\"total\":3,\"message\":\"step 2 of 3\""));
        transport.deliver(progress(TextNode.valueOf("someone-else"), "\"progress\":9"));
        transport.deliver(progress(token, "\"progress\":\"lots\""));
        transport.reply(sent.path("id").asText(), json(RESULT));
        assertThat(await(submit).snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        transport.deliver(progress(token, "\"progress\":3,\"total\":3"));

        assertThat(observer.progress).containsExactly(new CallProgress(1, 3.0, null),
                new CallProgress(2, 3.0, "step 2 of 3"));
        assertThat(observer.progress).extracting(CallProgress::statusMessage)
                .containsExactly("progress 1/3", "step 2 of 3");
    }

    @Test
    void aTaskCreateIsNoDirectCall() throws Exception {
        RecordingObserver observer = new RecordingObserver();
        await(driver().submit(call("required"), ALWAYS, observer));
        assertThat(sentAsTask()).isTrue();
        assertThat(observer.sent).isZero();
        assertThat(server.last().lastRequest("tools/call").path("params").has("_meta")).isFalse();
    }

    private static String progress(JsonNode token, String fields) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                + token + "," + fields + "}}";
    }

    /** Records what a submit reported; called on transport threads. */
    private static final class RecordingObserver implements SubmitObserver {
        volatile int sent;
        final List<CallProgress> progress = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void directCallSent() {
            sent++;
        }

        @Override
        public void progress(CallProgress update) {
            progress.add(update);
        }
    }

    @Test
    void callModeTaskRefusesAToolWithoutTaskSupportWithNothingSent() {
        RemoteCallException refused = remoteFailure(driver(CallMode.TASK, Map.of()).submit(call("echo")));

        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("tool echo is not task-capable")
                .hasMessageContaining("callMode task");
        assertThat(toolCalls()).isEmpty();
    }

    @Test
    void callModeTaskRefusesAServerWithoutTasksBeforeListingTools() {
        server.capabilities = json("{\"tools\":{}}");
        RemoteCallException refused = remoteFailure(driver(CallMode.TASK, Map.of()).submit(call("optional")));

        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(server.last().sent("tools/list")).isEmpty();
    }

    @Test
    void callModeDirectCallsEveryToolDirectly() throws Exception {
        NativeTasksDriver driver = driver(CallMode.DIRECT, Map.of());
        for (String tool : new String[] {"optional", "required", "echo"}) {
            SubmitResult done = await(driver.submit(call(tool)));
            assertThat(sentAsTask()).as(tool).isFalse();
            assertThat(done.createdTask()).as(tool).isFalse();
        }
        assertThat(remoteFailure(driver.submit(call("no_such_tool"))).failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(toolCalls()).hasSize(3);
    }

    @Test
    void aPerToolModeOverridesTheServersMode() throws Exception {
        NativeTasksDriver driver = driver(CallMode.DIRECT, Map.of("optional", CallMode.AUTO, "echo", CallMode.TASK));

        await(driver.submit(call("optional")));
        assertThat(sentAsTask()).isTrue();
        await(driver.submit(call("required")));
        assertThat(sentAsTask()).isFalse();
        assertThat(remoteFailure(driver.submit(call("echo"))).failure()).isEqualTo(RemoteFailure.REFUSED);
    }

    @Test
    void callModeIsReadFromConfigSpellings() {
        assertThat(CallMode.fromConfig("auto")).isEqualTo(CallMode.AUTO);
        assertThat(CallMode.fromConfig("direct")).isEqualTo(CallMode.DIRECT);
        assertThat(CallMode.fromConfig("task")).isEqualTo(CallMode.TASK);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CallMode.fromConfig("tasks"))
                .hasMessage("must be auto, task or direct, was 'tasks'");
    }
}
