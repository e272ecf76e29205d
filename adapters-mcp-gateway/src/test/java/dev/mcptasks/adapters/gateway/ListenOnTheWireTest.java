package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.V2026;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.testkit.ManualClock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code subscriptions/listen} on the wire: over Streamable HTTP the POST's answer is an SSE stream (the
 * acknowledgement, the task notifications, then the result that ends it), over stdio the same messages are lines,
 * and {@code notifications/cancelled} ends a subscription there.
 */
class ListenOnTheWireTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
    private static final String ENVELOPE = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}";

    private final FrontHarness front = new FrontHarness();
    private HttpGateway gateway;
    private final ExecutorService runner = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        runner.shutdownNow();
    }

    /** A task of {@code principal} (over HTTP without tokens, the anonymous principal). */
    private String createTask(String principal) {
        return front.result(principal, null, front.v2026("tools/call", "{'name':'alpha__long_job','arguments':{}}",
                true)).path("taskId").asText();
    }

    private static String listen(String id, String filter) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"subscriptions/listen\",\"params\":{"
                + "\"notifications\":" + filter + "," + ENVELOPE + "}}";
    }

    private WireClient.Response open(WireClient client, String body) {
        return client.post(body).header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "subscriptions/listen").send();
    }

    private WireClient startHttp() {
        gateway = HttpGateway.start(GatewaySettings.defaults().withBind("127.0.0.1", 0), front.dispatcher,
                new ManualClock());
        return new WireClient(gateway.address());
    }

    @Test
    void overHttpTheAnswerStreamsTheAcknowledgementTheChangesAndEndsWithTheResult() {
        WireClient client = startHttp();
        String id = createTask(GatewaySettings.DEFAULT_ANONYMOUS_PRINCIPAL);
        try (WireClient.Response stream = open(client, listen("sub-1", "{\"taskIds\":[\"" + id + "\"]}"))) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.header("Content-Type")).isEqualTo("text/event-stream");
            ObjectNode ack = stream.nextMessage().json();
            assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
            assertThat(ack.path("params").path("_meta").path(SUBSCRIPTION_ID).asText()).isEqualTo("sub-1");
            assertThat(ack.path("params").path("notifications").path("taskIds").get(0).asText()).isEqualTo(id);
            ObjectNode first = stream.nextMessage().json();
            assertThat(first.path("method").asText()).isEqualTo("notifications/tasks");
            assertThat(first.path("params").path("status").asText()).isEqualTo("working");
            eventually(() -> front.door.watching() == 1);

            front.created(id, V2026);
            front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "step 2"));
            front.tick();
            ObjectNode step = stream.nextMessage().json();
            assertThat(step.path("params").path("statusMessage").asText()).isEqualTo("step 2");
            assertThat(step.path("params").path("_meta").path(SUBSCRIPTION_ID).asText()).isEqualTo("sub-1");

            front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
            front.tick();
            ObjectNode done = stream.nextMessage().json();
            assertThat(done.path("params").path("status").asText()).isEqualTo("completed");
            assertThat(done.path("params").path("result").path("content").get(0).path("text").asText())
                    .isEqualTo("done");
            ObjectNode end = stream.nextMessage().json();
            assertThat(end.path("id").asText()).isEqualTo("sub-1");
            assertThat(end.path("result").path("resultType").asText()).isEqualTo("complete");
            assertThat(end.path("result").path("_meta").path(SUBSCRIPTION_ID).asText()).isEqualTo("sub-1");
            assertThat(stream.nextMessage()).as("the stream ends with the result").isNull();
        }
    }

    @Test
    void overHttpTheClientClosingTheStreamEndsTheSubscriptionAndTheGatewayStoppingEndsItGracefully() {
        WireClient client = startHttp();
        String id = createTask(GatewaySettings.DEFAULT_ANONYMOUS_PRINCIPAL);
        WireClient.Response leaving = open(client, listen("sub-1", "{\"taskIds\":[\"" + id + "\"]}"));
        leaving.nextMessage();
        leaving.nextMessage();
        eventually(() -> front.door.watching() == 1);
        leaving.close();
        eventually(() -> front.door.watching() == 0);

        try (WireClient.Response staying = open(client, listen("sub-2", "{\"taskIds\":[\"" + id + "\"]}"))) {
            staying.nextMessage();
            staying.nextMessage();
            eventually(() -> front.door.watching() == 1);
            gateway.close();
            ObjectNode end = staying.nextMessage().json();
            assertThat(end.path("id").asText()).isEqualTo("sub-2");
            assertThat(end.path("result").path("_meta").path(SUBSCRIPTION_ID).asText()).isEqualTo("sub-2");
        }
    }

    @Test
    void overHttpAClientThatDoesNotAcceptAStreamIsRefused() {
        WireClient client = startHttp();
        try (WireClient.Response response = client.post(listen("sub-1", "{\"taskIds\":[]}"))
                .header("Accept", "application/json").header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "subscriptions/listen").send()) {
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_REQUEST);
        }
    }

    @Test
    void overStdioTheMessagesAreLinesAndNotificationsCancelledEndsTheSubscriptionUnanswered() throws Exception {
        String id = createTask(ALICE);
        PipedInputStream pipe = new PipedInputStream(64 * 1024);
        PipedOutputStream in = new PipedOutputStream(pipe);
        PipedInputStream outPipe = new PipedInputStream(64 * 1024);
        PipedOutputStream out = new PipedOutputStream(outPipe);
        BufferedReader lines = new BufferedReader(new InputStreamReader(outPipe, StandardCharsets.UTF_8));
        StdioGateway stdio = StdioGateway.of(front.dispatcher, ALICE, 1 << 20, Duration.ofSeconds(5));
        Future<?> serving = runner.submit(() -> {
            stdio.serve(pipe, out);
            out.close();
            return null;
        });
        write(in, listen("7", "{\"taskIds\":[\"" + id + "\"]}"));
        ObjectNode ack = (ObjectNode) JSON.readTree(lines.readLine());
        assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("_meta").path(SUBSCRIPTION_ID).asText()).isEqualTo("7");
        assertThat(JSON.readTree(lines.readLine()).path("params").path("status").asText()).isEqualTo("working");
        eventually(() -> front.door.watching() == 1);

        write(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"7\","
                + ENVELOPE + "}}");
        eventually(() -> front.door.watching() == 0);
        write(in, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":{" + ENVELOPE + "}}");
        assertThat(JSON.readTree(lines.readLine()).path("id").asInt())
                .as("the cancelled subscription got no answer; the next line answers the ping").isEqualTo(8);
        in.close();
        serving.get(10, TimeUnit.SECONDS);
        assertThat(lines.readLine()).isNull();
    }

    private static void eventually(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static void write(PipedOutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
