package dev.mcptasks.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several workers speak at once in one server-everything session over HTTP, as after takeovers (each resumed the
 * session its creator opened), and every answer is its own. server-everything (the TypeScript SDK) routes an answer
 * by its request id within the session: when every worker counted ids from 1, two calls in flight with one id got
 * each other's answers. Needs node and the shared peer script; fails, never skips, when they are missing.
 */
class SharedSessionInteropTest {
    private static final String SERVER = "everything";
    private static final int WORKERS = 3;
    private static final int CALLS_PER_WORKER = 6;

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : cleanup) {
            closeable.close();
        }
    }

    @Test
    void workersSharingOneUpstreamSessionEachGetTheirOwnAnswers() throws Exception {
        assertThat(EverythingPeer.unavailable()).as("server-everything must be runnable here").isEmpty();
        EverythingPeer.warmUp();
        EverythingPeer.Http http = new EverythingPeer.Http();
        cleanup.add(http);
        McpServerSettings settings = McpServerSettings.of(http.spec(SERVER));

        List<McpSession> speakers = new ArrayList<>();
        McpSessions creator = workers(settings);
        McpSession created = creator.session(SERVER).orElseThrow();
        InteropTest.connect(created);
        String sessionId = created.endpointSession().orElseThrow();
        speakers.add(created);
        for (int i = 1; i < WORKERS; i++) {
            McpSessions worker = workers(settings);
            McpSession own = worker.session(SERVER).orElseThrow();
            InteropTest.connect(own);
            RemoteTaskRef ref = new RemoteTaskRef(TaskId.of("t-" + i), SERVER, "echo", "remote-" + i, "2025-11-25",
                    sessionId);
            speakers.add(worker.resumedFor(own, ref).orElseThrow());
        }

        List<CompletableFuture<String>> answers = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int call = 0; call < CALLS_PER_WORKER; call++) {
            for (int worker = 0; worker < WORKERS; worker++) {
                // distinct durations keep calls of all workers in flight together and name each answer
                double duration = 0.41 + 0.05 * (call * WORKERS + worker); // never whole: JavaScript prints 1.0 as 1
                String seconds = String.format(Locale.ROOT, "%.2f", duration);
                ObjectNode params = Json.object().put("name", "trigger-long-running-operation");
                params.putObject("arguments").put("duration", Double.parseDouble(seconds)).put("steps", 1);
                answers.add(speakers.get(worker).request("tools/call", params).thenApply(SharedSessionInteropTest::text));
                expected.add("Duration: " + Double.parseDouble(seconds) + " seconds");
                ObjectNode echo = Json.object().put("name", "echo");
                String message = "worker " + worker + " call " + call;
                echo.putObject("arguments").put("message", message);
                answers.add(speakers.get(worker).request("tools/call", echo).thenApply(SharedSessionInteropTest::text));
                expected.add("Echo: " + message);
            }
        }
        for (int i = 0; i < answers.size(); i++) {
            assertThat(answers.get(i).get(60, TimeUnit.SECONDS)).as("answer %d", i).contains(expected.get(i));
        }
    }

    private McpSessions workers(McpServerSettings settings) {
        McpSessions sessions = new McpSessions(List.of(settings), List.of(new HttpTransportFactory()),
                new ManualClock(), "interop");
        cleanup.add(0, sessions);
        return sessions;
    }

    private static String text(JsonNode result) {
        return result.path("content").get(0).path("text").asText();
    }
}
