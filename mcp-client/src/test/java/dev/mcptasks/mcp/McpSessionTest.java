package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The session over an in-memory scripted transport: correlation, lifecycle, timeouts, recovery, tool cache. */
class McpSessionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Callback threads for sessions built directly in tests (daemon, shared by the test JVM). */
    static final Executor CALLBACKS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "test-callbacks");
        thread.setDaemon(true);
        return thread;
    });
    private final FakeServer server = new FakeServer();
    private final ManualClock clock = new ManualClock();
    private final McpSession session = new McpSession(
            new McpServerSettings(FakeServer.spec(), TIMEOUT, true), server, clock, CALLBACKS, "test");

    @AfterEach
    void closeSession() {
        session.close();
    }

    static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    /** Waits (bounded) for the future to fail and returns why. */
    static Throwable failureOf(CompletableFuture<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
            throw new AssertionError("not failed");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void echo() {
        server.on("echo", request -> request.path("params"));
    }

    @Test
    void handshakeRunsBeforeTheFirstRequestAndNegotiatesTheVersion() throws Exception {
        echo();
        JsonNode result = await(session.request("echo", json("{\"x\":1,\"unknown\":{\"deep\":[1,2]}}")));

        assertThat(result).isEqualTo(json("{\"x\":1,\"unknown\":{\"deep\":[1,2]}}"));
        FakeTransport transport = server.last();
        assertThat(transport.sent).extracting(m -> m.path("method").asText())
                .containsExactly("server/discover", "initialize", "notifications/initialized", "echo");
        JsonNode init = transport.sent.get(1);
        assertThat(init.at("/params/protocolVersion").asText()).isEqualTo("2025-11-25");
        assertThat(init.at("/params/clientInfo/name").asText()).isEqualTo("mcp-tasks");
        assertThat(transport.negotiatedVersion).isEqualTo("2025-11-25");
        McpHandshake handshake = session.handshake().orElseThrow();
        assertThat(handshake.supportsTaskToolCalls()).isTrue();
        assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(session.generation()).contains(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(handshake.capabilities()).extracting(ServerCapabilities::tasksCancel, ServerCapabilities::tasksList,
                ServerCapabilities::toolsListChanged).containsExactly(true, true, true);
        assertThat(handshake.raw().path("vendorExtension").asText()).isEqualTo("kept");
    }

    @Test
    void requestIdsAreUniqueAndIncreasing() throws Exception {
        echo();
        for (int i = 0; i < 5; i++) {
            await(session.request("echo", null));
        }
        List<String> ids = server.last().sent.stream().filter(m -> m.has("id")).map(m -> m.get("id").asText())
                .toList();
        // the probe, initialize, five echoes: string ids of this process, never one twice
        assertThat(ids).hasSize(7).doesNotHaveDuplicates().allMatch(id -> id.startsWith(RequestIds.prefix() + "-"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-25", "2025-06-18", "2025-03-26"})
    void acceptsEverySupportedVersion(String version) throws Exception {
        server.version = version;
        McpHandshake handshake = await(session.connect());
        assertThat(handshake.protocolVersion()).isEqualTo(version);
        assertThat(server.last().negotiatedVersion).isEqualTo(version);
        assertThat(handshake.supportsTaskToolCalls()).isEqualTo(version.equals("2025-11-25"));
    }

    @Test
    void anUnsupportedVersionFailsTypedAndDisconnects() throws Exception {
        server.version = "2099-01-01";
        echo();
        CompletableFuture<JsonNode> call = session.request("echo", null);

        assertThat(failureOf(call)).isInstanceOf(McpProtocolException.class).hasMessageContaining("2099-01-01");
        FakeTransport first = server.last();
        await(first.closed);
        assertThat(first.sent(("echo"))).isEmpty();
        assertThat(first.sent("notifications/initialized")).isEmpty();

        server.version = "2025-11-25";
        await(session.request("echo", null));
        assertThat(server.transports).hasSize(2);
    }

    @RepeatedTest(20)
    void concurrentFirstCallsInitializeOnce() throws Exception {
        echo();
        int callers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<CompletableFuture<JsonNode>>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                int n = i;
                calls.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return session.request("echo", json("{\"n\":" + n + "}"));
                }, pool));
            }
            start.countDown();
            for (int i = 0; i < callers; i++) {
                assertThat(await(await(calls.get(i))).path("n").asInt()).isEqualTo(i);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.initializations).hasValue(1);
        assertThat(server.transports).hasSize(1);
    }

    @Test
    void answersPingAndRefusesOtherServerRequests() throws Exception {
        await(session.connect());
        FakeTransport transport = server.last();
        transport.deliver("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}");
        transport.deliver("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"elicitation/create\",\"params\":{}}");

        List<JsonNode> answers = transport.sent.stream().filter(m -> !m.has("method")).toList();
        assertThat(answers).hasSize(2);
        assertThat(answers.get(0)).isEqualTo(json("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}"));
        assertThat(answers.get(1).path("id").asText()).isEqualTo("s-1");
        assertThat(answers.get(1).at("/error/code").asInt()).isEqualTo(-32601);
    }

    @Test
    void garbageUnknownIdsAndNonObjectsAreIgnoredAndTheSessionSurvives() throws Exception {
        server.on("slow", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("slow", null);
        FakeTransport transport = server.last();
        String id = transport.lastRequest("slow").get("id").asText();

        transport.deliver("{not json");
        transport.deliver("[1,2,3]");
        transport.deliver("42");
        transport.deliver("{\"jsonrpc\":\"2.0\",\"id\":9999,\"result\":{}}");
        transport.deliver("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "x\",\"result\":{}}");
        transport.deliver("{\"jsonrpc\":\"2.0\",\"method\":17}");
        assertThat(call).isNotDone();

        transport.reply(id, json("{\"ok\":true}"));
        assertThat(await(call).path("ok").asBoolean()).isTrue();
        echo();
        assertThat(await(session.request("echo", json("{\"a\":1}")))).isEqualTo(json("{\"a\":1}"));
        assertThat(server.transports).hasSize(1);
    }

    @Test
    void aTimeoutFailsTypedAndSendsCancelled() throws Exception {
        server.on("slow", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("slow", null);
        FakeTransport transport = server.last();
        String id = transport.lastRequest("slow").get("id").asText();

        clock.advance(TIMEOUT.minusMillis(1));
        assertThat(call).isNotDone();
        clock.advance(Duration.ofMillis(1));

        assertThat(failureOf(call)).isInstanceOf(McpTimeoutException.class).hasMessageContaining("slow");
        JsonNode cancelled = transport.lastRequest("notifications/cancelled");
        assertThat(cancelled.at("/params/requestId").asText()).isEqualTo(id);
        assertThat(cancelled.at("/params/reason").asText()).contains("timed out");

        transport.reply(id, json("{}"));
        echo();
        assertThat(await(session.request("echo", json("{}")))).isEqualTo(json("{}"));
    }

    @Test
    void cancellingTheFutureSendsCancelledAndClearsTheTimer() throws Exception {
        server.on("slow", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("slow", null);
        FakeTransport transport = server.last();
        String id = transport.lastRequest("slow").get("id").asText();

        call.cancel(true);

        JsonNode cancelled = awaitSent(transport, "notifications/cancelled");
        assertThat(cancelled.at("/params/requestId").asText()).isEqualTo(id);
        assertThat(cancelled.at("/params/reason").asText()).contains("cancelled");
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void aJsonRpcErrorIsTyped() throws Exception {
        server.on("bad", (transport, request) -> {
            throw new FakeServer.RpcError(-32602, "Task not found: t1");
        });
        Throwable failure = failureOf(session.request("bad", null));
        assertThat(failure).isInstanceOfSatisfying(McpErrorResponse.class, e -> {
            assertThat(e.code()).isEqualTo(-32602);
            assertThat(e.remoteMessage()).isEqualTo("Task not found: t1");
            assertThat(e.method()).isEqualTo("bad");
        });
    }

    @Test
    void aMalformedErrorObjectIsAProtocolViolation() throws Exception {
        server.on("odd", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("odd", null);
        String id = server.last().lastRequest("odd").get("id").toString();
        server.last().deliver("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":\"boom\"}");
        assertThat(failureOf(call)).isInstanceOf(McpProtocolException.class).hasMessageContaining("malformed error");
    }

    @Test
    void aLostTransportFailsInFlightRequestsRetryablyAndTheNextRequestReinitializes() throws Exception {
        server.on("slow", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("slow", null);
        FakeTransport first = server.last();

        first.die(McpTransportException.Kind.PROCESS_EXITED);

        assertThat(failureOf(call)).isInstanceOfSatisfying(McpTransportFailure.class, e -> {
            assertThat(e.retryable()).isTrue();
            assertThat(e.sent()).isTrue();
            assertThat(e.transportCause().kind()).isEqualTo(McpTransportException.Kind.PROCESS_EXITED);
        });
        echo();
        assertThat(await(session.request("echo", json("{\"b\":2}")))).isEqualTo(json("{\"b\":2}"));
        assertThat(server.transports).hasSize(2);
        assertThat(server.initializations).hasValue(2);
        assertThat(server.last().sent.get(0).path("method").asText()).isEqualTo("initialize");
    }

    @Test
    void aSessionLostOnSendReinitializesOnTheNextRequest() throws Exception {
        echo();
        await(session.connect());
        server.sendFailure = Map.entry("echo", new McpTransportException(McpTransportException.Kind.SESSION_LOST,
                "404 session gone"));

        assertThat(failureOf(session.request("echo", null))).isInstanceOfSatisfying(McpTransportFailure.class,
                e -> assertThat(e.sent()).isFalse());
        await(server.transports.get(0).closed);
        assertThat(await(session.request("echo", json("{}")))).isEqualTo(json("{}"));
        assertThat(server.transports).hasSize(2);
    }

    @Test
    void anHttpErrorFailsOnlyThatCallAndKeepsTheSession() throws Exception {
        echo();
        await(session.connect());
        server.sendFailure = Map.entry("echo", McpTransportException.httpStatus(500, "HTTP 500"));

        assertThat(failureOf(session.request("echo", null))).isInstanceOfSatisfying(McpTransportFailure.class, e -> {
            assertThat(e.retryable()).isTrue();
            assertThat(e.sent()).isTrue();
        });
        assertThat(await(session.request("echo", json("{}")))).isEqualTo(json("{}"));
        assertThat(server.transports).hasSize(1);
    }

    @Test
    void aTransportThatCannotStartFailsAsNotSent() throws Exception {
        server.startFailure = new McpTransportException(McpTransportException.Kind.CONNECT_FAILED, "no such command");
        assertThat(failureOf(session.request("echo", null))).isInstanceOfSatisfying(McpTransportFailure.class, e -> {
            assertThat(e.sent()).isFalse();
            assertThat(e).hasMessageContaining("no such command");
        });
        echo();
        assertThat(await(session.request("echo", json("{}")))).isEqualTo(json("{}"));
    }

    @Test
    void anInitializeTimeoutFailsRequestsAsNotSentWithoutCancellingInitialize() throws Exception {
        server.on("initialize", (transport, request) -> null);
        CompletableFuture<JsonNode> call = session.request("echo", null);

        clock.advance(TIMEOUT);

        assertThat(failureOf(call)).isInstanceOfSatisfying(McpException.class, e -> assertThat(e)
                .isInstanceOf(McpTimeoutException.class));
        assertThat(server.last().sent("notifications/cancelled")).isEmpty();
        assertThat(server.last().sent("echo")).isEmpty();
    }

    @Test
    void toolsArePagedCachedAndRefreshedOnListChanged() throws Exception {
        AtomicReference<String> extra = new AtomicReference<>("one");
        server.on("tools/list", request -> {
            String cursor = request.at("/params/cursor").asText(null);
            if (cursor == null) {
                return json("{\"tools\":[{\"name\":\"a\",\"execution\":{\"taskSupport\":\"required\"},\"x\":1}],"
                        + "\"nextCursor\":\"p2\"}");
            }
            return json("{\"tools\":[{\"name\":\"b\"},{\"name\":\"" + extra.get() + "\","
                    + "\"execution\":{\"taskSupport\":\"optional\"}}]}");
        });

        Map<String, McpTool> tools = await(session.tools());
        assertThat(tools.keySet()).containsExactly("a", "b", "one");
        assertThat(tools.get("a").taskCapable()).isTrue();
        assertThat(tools.get("a").raw().path("x").asInt()).isEqualTo(1);
        assertThat(tools.get("b").taskSupport()).isEqualTo("forbidden");
        assertThat(tools.get("b").taskCapable()).isFalse();
        await(session.tools());
        assertThat(server.last().sent("tools/list")).hasSize(2);

        extra.set("two");
        server.last().deliver("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
        assertThat(await(session.tools()).keySet()).containsExactly("a", "b", "two");
        assertThat(server.last().sent("tools/list")).hasSize(4);
    }

    @Test
    void findToolRefreshesOnceOnAMiss() throws Exception {
        AtomicReference<String> names = new AtomicReference<>("[{\"name\":\"a\"}]");
        server.on("tools/list", request -> json("{\"tools\":" + names.get() + "}"));
        await(session.tools());
        names.set("[{\"name\":\"a\"},{\"name\":\"late\"}]");

        assertThat(await(session.findTool("late"))).map(McpTool::name).contains("late");
        assertThat(await(session.findTool("never"))).isEmpty();
    }

    @Test
    void aRepeatingCursorIsAProtocolViolation() throws Exception {
        server.on("tools/list", request -> json("{\"tools\":[],\"nextCursor\":\"same\"}"));
        assertThat(failureOf(session.tools())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("same");
    }

    @Test
    void taskStatusNotificationsForUnknownTasksReachTheHintListener() throws Exception {
        List<JsonNode> hints = new ArrayList<>();
        session.addTaskStatusListener(hints::add);
        await(session.connect());
        server.last().deliver("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\","
                + "\"params\":{\"taskId\":\"never-seen\",\"status\":\"working\"}}");
        assertThat(hints).extracting(h -> h.path("taskId").asText()).containsExactly("never-seen");
    }

    @Test
    void aClosedSessionRefusesRequestsAndClosesItsTransport() throws Exception {
        await(session.connect());
        session.close();
        assertThat(server.last().closed).isDone();
        assertThatThrownBy(() -> session.request("echo", null).get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(McpTransportFailure.class);
    }

    /** The last message of {@code method}, waiting (bounded) for a send that may run on another thread. */
    private static JsonNode awaitSent(FakeTransport transport, String method) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (transport.sent(method).isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
        return transport.lastRequest(method);
    }
}
