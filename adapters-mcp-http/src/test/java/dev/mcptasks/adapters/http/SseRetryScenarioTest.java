package dev.mcptasks.adapters.http;

import static dev.mcptasks.adapters.http.ResumableSsePeer.message;
import static dev.mcptasks.adapters.http.ResumableSsePeer.priming;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.http.ResumableSsePeer.End;
import dev.mcptasks.adapters.http.ResumableSsePeer.Reply;
import dev.mcptasks.adapters.http.ResumableSsePeer.Seen;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.testkit.transport.JsonMembers;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's {@code sse-retry} client scenario (0.1.16), ported: its server answers {@code tools/call}
 * with a priming event ({@code retry: 500}) and ends that stream 50 ms later without the response, answers every GET
 * with a priming event (and the pending response, if any) and holds it open. It then checks that a GET came, that
 * the last GET came between {@code retry - 50} and {@code retry + 200} ms after the close (later is a warning, after
 * {@code 2 * retry} a failure), and that the first GET with a {@code Last-Event-ID} had one (else a warning).
 * Here the late bound is the suite's failure bound: the wait itself never comes early, while a loaded CI machine can
 * delay the reconnect by more than the warning's 200 ms without anything being wrong in the transport.
 */
class SseRetryScenarioTest {
    private static final int RETRY_MS = 500;
    private static final int EARLY_TOLERANCE = 50;
    private static final int LATE_TOLERANCE = RETRY_MS;

    private final RecordingListener listener = new RecordingListener();
    private ResumableSsePeer peer;
    private McpTransport transport;
    private int eventIds;
    private String pendingToolCall;

    @AfterEach
    void tearDown() {
        if (transport != null) {
            transport.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    private synchronized Reply scenario(Seen seen) {
        if (seen.method().equals("GET")) {
            List<String> events = new ArrayList<>();
            events.add(priming("event-" + ++eventIds, RETRY_MS));
            if (pendingToolCall != null) {
                events.add(message("event-" + ++eventIds, result(pendingToolCall)));
                pendingToolCall = null;
            }
            return new Reply.Sse(events, End.HOLD, 0);
        }
        String method = JsonMembers.unquote(JsonMembers.of(seen.body()).get("method"));
        String id = JsonMembers.of(seen.body()).get("id");
        if (id == null) {
            return ResumableSsePeer.json(202, "");
        }
        if (method.equals("tools/call")) {
            pendingToolCall = id;
            return new Reply.Sse(List.of(priming("event-" + ++eventIds, RETRY_MS)), End.CLEAN, 50);
        }
        if (method.equals("initialize")) {
            return ResumableSsePeer.json(200, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":"
                    + "\"2025-03-26\",\"serverInfo\":{\"name\":\"sse-retry-test-server\",\"version\":\"1.0.0\"},"
                    + "\"capabilities\":{\"tools\":{}}}}");
        }
        return ResumableSsePeer.json(200, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
    }

    private static String result(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                + "\"Reconnection test completed successfully\"}]}}";
    }

    @Test
    void theToolCallIsAnsweredOnTheResumedStreamWithinTheScenariosBoundsAndWithoutWarnings() throws Exception {
        peer = new ResumableSsePeer();
        peer.script = this::scenario;
        transport = new HttpTransportFactory().create(McpServerSpec.http("sse-retry", peer.url(), Map.of()));
        transport.start(listener);

        transport.send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}").get(15, TimeUnit.SECONDS);
        transport.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").get(15, TimeUnit.SECONDS);
        transport.protocolVersionNegotiated("2025-03-26");
        transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}").get(15, TimeUnit.SECONDS);
        transport.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"test_reconnection\",\"arguments\":{}}}").get(15, TimeUnit.SECONDS);

        assertThat(listener.messages()).contains(result("2"));
        List<Seen> gets = peer.requests.stream().filter(r -> r.method().equals("GET")).toList();
        assertThat(gets).as("client-sse-graceful-reconnect").isNotEmpty();
        assertThat(peer.streamEnds).hasSize(1);
        long delayMs = TimeUnit.NANOSECONDS.toMillis(gets.get(gets.size() - 1).atNanos() - peer.streamEnds.get(0));
        assertThat(delayMs).as("client-sse-retry-timing")
                .isBetween((long) RETRY_MS - EARLY_TOLERANCE, (long) RETRY_MS + LATE_TOLERANCE);
        assertThat(peer.resumptions()).as("client-sse-last-event-id").isNotEmpty();
        assertThat(peer.resumptions().get(0).lastEventId()).isEqualTo("event-2");
    }
}
