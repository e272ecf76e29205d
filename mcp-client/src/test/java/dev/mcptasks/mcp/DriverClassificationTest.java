package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How both drivers classify odd answers, scripted on the in-memory fake server. */
class DriverClassificationTest {
    private static final String TASK = "{\"taskId\":\"r1\",\"status\":\"working\",\"ttl\":null,"
            + "\"createdAt\":\"2026-12-02T11:29:08.492Z\",\"lastUpdatedAt\":\"2026-12-02T11:29:08.492Z\"}";
    private final FakeServer server = new FakeServer();
    private final McpSessions sessions = new McpSessions(
            List.of(new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(5), false)), List.of(server),
            new ManualClock(), "test");
    private final NativeTasksDriver nativeDriver = new NativeTasksDriver(sessions);
    private final OrdinaryToolsDriver ordinary = new OrdinaryToolsDriver(sessions,
            Map.of("fake", new OrdinaryToolset("start", "check", "stop")));
    private final RemoteTaskRef ref = new RemoteTaskRef(TaskId.of("t1"), "fake", "work", "r1");

    DriverClassificationTest() {
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"work\",\"execution\":"
                + "{\"taskSupport\":\"required\"}},{\"name\":\"plain\"}]}"));
    }

    @AfterEach
    void close() {
        sessions.close();
    }

    private static SubmitCall submit(String tool) {
        return new SubmitCall(TaskId.of("t1"), "fake", tool, "{\"a\":1}", 1000L);
    }

    private void toolCall(String answer) {
        server.on("tools/call", request -> json(answer));
    }

    private RemoteFailure nativeSubmitFailure() {
        return remoteFailure(nativeDriver.submit(submit("work"))).failure();
    }

    @Test
    void createSendsTheTaskAugmentationAndReadsTheTask() throws Exception {
        toolCall("{\"task\":" + TASK + ",\"_meta\":{\"x\":1}}");
        var created = await(nativeDriver.submit(submit("work")));
        JsonNode sent = server.last().lastRequest("tools/call").path("params");
        assertThat(sent).isEqualTo(json("{\"name\":\"work\",\"arguments\":{\"a\":1},\"task\":{\"ttl\":1000}}"));
        assertThat(created.snapshot().remoteTaskId()).isEqualTo("r1");
        assertThat(created.snapshot().remoteTtlMs()).isNull();
        assertThat(created.processLocal()).isFalse();
    }

    @Test
    void createAnswersOtherThanATaskAreRefusedOrProtocolErrors() {
        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"requires task augmentation\"}],\"isError\":true}");
        RemoteCallException refused = remoteFailure(nativeDriver.submit(submit("work")));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("requires task augmentation");

        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"ran synchronously\"}]}");
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.PROTOCOL);

        toolCall("{\"task\":{\"status\":\"working\"}}");
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.PROTOCOL);

        server.on("tools/call", request -> {
            throw new FakeServer.RpcError(-32602, "Invalid task creation result");
        });
        RemoteCallException rpc = remoteFailure(nativeDriver.submit(submit("work")));
        assertThat(rpc.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(rpc).hasMessageContaining("Invalid task creation result");
    }

    @Test
    void createIsGatedOnVersionCapabilityAndTool() throws Exception {
        toolCall("{\"task\":" + TASK + "}");
        // a tool without task support is no longer refused: it is called directly (DirectCallsTest)
        await(nativeDriver.submit(submit("plain")));
        assertThat(server.last().lastRequest("tools/call").path("params").has("task")).isFalse();

        server.capabilities = json("{\"tools\":{}}");
        server.last().die(McpTransportException.Kind.PROCESS_EXITED);
        assertThat(remoteFailure(nativeDriver.submit(submit("work")))).hasMessageContaining(
                "tasks.requests.tools.call");
        assertThat(server.last().sent("tools/call")).isEmpty();
    }

    @Test
    void anOlderProtocolVersionIsRefusedEvenWithTheCapability() {
        server.version = "2025-06-18";
        RemoteCallException refused = remoteFailure(nativeDriver.submit(submit("work")));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("2025-06-18");
    }

    @Test
    void transportFailuresAreTransientOrNotSent() {
        server.startFailure = new McpTransportException(McpTransportException.Kind.CONNECT_FAILED, "refused");
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.NOT_SENT);

        server.sendFailure = Map.entry("tools/call", new McpTransportException(
                McpTransportException.Kind.STREAM_BROKEN, "cut"));
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.TRANSIENT);

        server.sendFailure = Map.entry("tasks/get", McpTransportException.httpStatus(500, "HTTP 500"));
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.TRANSIENT);
        server.last().deliver("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
        server.sendFailure = Map.entry("tools/list", McpTransportException.httpStatus(503, "HTTP 503"));
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.NOT_SENT);
    }

    @Test
    void authorizationRefusedByTheTransportIsAuthRequiredWithItsReasonOnEveryOperation() {
        McpTransportException refused = new McpTransportException(McpTransportException.Kind.AUTH_REQUIRED,
                "server 'fake' needs a login: run bin/mcp-tasks auth login fake");
        server.startFailure = refused;
        RemoteCallException atConnect = remoteFailure(nativeDriver.submit(submit("work")));
        assertThat(atConnect.failure()).isEqualTo(RemoteFailure.AUTH_REQUIRED);
        assertThat(atConnect).hasMessageContaining("run bin/mcp-tasks auth login fake");

        server.sendFailure = Map.entry("tools/call", refused);
        assertThat(nativeSubmitFailure()).isEqualTo(RemoteFailure.AUTH_REQUIRED);
        server.sendFailure = Map.entry("tools/call", refused);
        assertThat(remoteFailure(nativeDriver.submit(submit("plain"))).failure())
                .as("a direct call").isEqualTo(RemoteFailure.AUTH_REQUIRED);
        server.sendFailure = Map.entry("tasks/get", refused);
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.AUTH_REQUIRED);
        server.sendFailure = Map.entry("tasks/cancel", refused);
        assertThat(remoteFailure(nativeDriver.cancel(ref)).failure()).isEqualTo(RemoteFailure.AUTH_REQUIRED);
        server.sendFailure = Map.entry("tools/call", refused);
        assertThat(remoteFailure(ordinary.submit(submit("start"))).failure()).isEqualTo(RemoteFailure.AUTH_REQUIRED);
    }

    @Test
    void requestsInFlightWhenTheConnectionIsLostMayHaveBeenSent() throws Exception {
        server.on("tools/call", (transport, request) -> null);
        var create = nativeDriver.submit(submit("work"));
        TaskPeerScript.eventually(() -> !server.transports.isEmpty() && !server.last().sent("tools/call").isEmpty(),
                "the create is written");

        server.last().die(McpTransportException.Kind.SESSION_LOST);

        assertThat(remoteFailure(create).failure()).isEqualTo(RemoteFailure.TRANSIENT);
    }

    @Test
    void aResultOverTheMessageCapFailsOnceAsAProtocolErrorNamingCapAndSize() {
        server.on("tasks/get", request -> json(TASK.replace("working", "completed")));
        server.on("tasks/result", (transport, request) -> {
            // stdio-like: the answer line was discarded and reported with its ends, the request gets no answer
            transport.report(new McpMessageTooLargeException("server 'fake' wrote a line", 20_971_520L, false,
                    16_777_216, "{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"xxxx",
                    "xxxx\"}]},\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + "}"));
            return null;
        });

        RemoteCallException failure = remoteFailure(nativeDriver.status(ref));

        assertThat(failure.failure()).isEqualTo(RemoteFailure.PROTOCOL);
        assertThat(failure).hasMessageContaining("20971520 bytes").hasMessageContaining("cap of 16777216 bytes")
                .hasMessageContaining("tasks/result");

        server.sendFailure = Map.entry("tasks/get", new McpMessageTooLargeException("server 'fake' sent an SSE event",
                17_000_000L, false, 16_777_216, "", ""));
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.PROTOCOL);
    }

    @Test
    void aFailedTaskWhoseResultIsAJsonRpcErrorKeepsThatError() throws Exception {
        server.on("tasks/get", request -> json(TASK.replace("working", "failed")));
        server.on("tasks/result", request -> {
            throw new FakeServer.RpcError(-32603, "tool crashed");
        });
        RemoteTaskSnapshot failed = await(nativeDriver.status(ref));
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.error()).contains("tool crashed");
        assertThat(failed.resultJson()).isNull();
    }

    @Test
    void statusReadsAreClassified() {
        server.on("tasks/get", request -> json(TASK.replace("working", "pending")));
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.PROTOCOL);

        server.on("tasks/get", request -> json(TASK.replace("r1", "other")));
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.PROTOCOL);

        server.on("tasks/get", request -> json(TASK.replace("working", "completed")));
        server.on("tasks/result", request -> {
            throw new FakeServer.RpcError(-32602, "Task not found: r1");
        });
        assertThat(remoteFailure(nativeDriver.status(ref)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void cancelNeedsTheCapability() {
        server.capabilities = json("{\"tasks\":{\"requests\":{\"tools\":{\"call\":{}}}}}");
        RemoteCallException refused = remoteFailure(nativeDriver.cancel(ref));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.UNSUPPORTED);
        assertThat(refused).hasMessageContaining("tasks.cancel");
    }

    @Test
    void ordinaryCancelWithoutACancelToolIsUnsupportedAndSendsNothing() throws Exception {
        OrdinaryToolsDriver withoutCancel = new OrdinaryToolsDriver(sessions,
                Map.of("fake", new OrdinaryToolset("start", "check", null)));
        toolCall("{\"structuredContent\":{\"task_id\":\"r1\",\"status\":\"running\"}}");
        assertThat(await(withoutCancel.status(ref)).status()).isEqualTo(TaskStatus.WORKING);

        RemoteCallException refused = remoteFailure(withoutCancel.cancel(ref));

        assertThat(refused.failure()).isEqualTo(RemoteFailure.UNSUPPORTED);
        assertThat(refused).hasMessageContaining("no cancel tool");
        assertThat(server.last().sent("tools/call")).as("only the status read reached the server")
                .extracting(call -> call.path("params").path("name").asText()).containsExactly("check");
    }

    @Test
    void ordinaryStatusAnswersAreClassified() throws Exception {
        toolCall("{\"structuredContent\":{\"task_id\":\"r1\",\"status\":\"running\",\"poll_after_seconds\":2.5}}");
        RemoteTaskSnapshot running = await(ordinary.status(ref));
        assertThat(running.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(running.pollAfter()).isEqualTo(Duration.ofMillis(2500));
        assertThat(server.last().lastRequest("tools/call").path("params"))
                .isEqualTo(json("{\"name\":\"check\",\"arguments\":{\"task_id\":\"r1\"}}"));

        toolCall("{\"structuredContent\":{\"task_id\":\"r1\",\"status\":\"input_required\",\"question\":\"ok?\"}}");
        assertThat(await(ordinary.status(ref)).inputRequiredJson()).contains("ok?");

        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"busy\"}],\"isError\":true}");
        assertThat(remoteFailure(ordinary.status(ref)).failure()).isEqualTo(RemoteFailure.TRANSIENT);

        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"Unknown task r1\"}],\"isError\":true}");
        assertThat(remoteFailure(ordinary.status(ref)).failure()).isEqualTo(RemoteFailure.TASK_LOST);

        toolCall("{\"structuredContent\":{\"task_id\":\"r1\",\"error_code\":\"not_found\"}}");
        assertThat(remoteFailure(ordinary.status(ref)).failure()).isEqualTo(RemoteFailure.TASK_LOST);

        toolCall("{\"structuredContent\":{\"task_id\":\"r1\"}}");
        assertThat(remoteFailure(ordinary.status(ref)).failure()).isEqualTo(RemoteFailure.PROTOCOL);

        toolCall("{\"structuredContent\":{\"task_id\":\"r1\",\"status\":\"working\"}}");
        assertThat(remoteFailure(ordinary.status(ref))).hasMessageContaining("unknown status 'working'");

        toolCall("{\"content\":[]}");
        assertThat(remoteFailure(ordinary.status(ref)).failure()).isEqualTo(RemoteFailure.PROTOCOL);
    }

    @Test
    void ordinarySubmitPassesTheArgumentsAndRefusesToolErrors() throws Exception {
        toolCall("{\"structuredContent\":{\"task_id\":\"j9\",\"status\":\"running\"}}");
        assertThat(await(ordinary.submit(submit("work"))).snapshot().remoteTaskId()).isEqualTo("j9");
        assertThat(server.last().lastRequest("tools/call").path("params"))
                .isEqualTo(json("{\"name\":\"start\",\"arguments\":{\"a\":1}}"));

        toolCall("{\"content\":[{\"type\":\"text\",\"text\":\"quota exceeded\"}],\"isError\":true}");
        RemoteCallException refused = remoteFailure(ordinary.submit(submit("work")));
        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("quota exceeded");
    }

    @Test
    void unknownServersAndMissingToolsetsFailTyped() {
        SubmitCall elsewhere = new SubmitCall(TaskId.of("t1"), "nowhere", "work", "{}", null);
        assertThat(remoteFailure(nativeDriver.submit(elsewhere)).failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(remoteFailure(new OrdinaryToolsDriver(sessions, Map.of()).submit(submit("work"))))
                .hasMessageContaining("no ordinary toolset");
    }
}
