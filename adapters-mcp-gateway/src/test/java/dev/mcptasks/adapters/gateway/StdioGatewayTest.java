package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The stdio front door: one JSON-RPC message per line each way, answers in any order, end of input ends it. */
class StdioGatewayTest {
    private final FakeDispatcher dispatcher = new FakeDispatcher();
    private final ExecutorService runner = Executors.newSingleThreadExecutor();
    private final Lines out = new Lines();
    private PipedOutputStream in;
    private Future<?> serving;

    @AfterEach
    void stop() throws Exception {
        in.close();
        serving.get(10, TimeUnit.SECONDS);
        runner.shutdownNow();
    }

    private void serve(int maxLineBytes, Duration drain) throws IOException {
        PipedInputStream pipe = new PipedInputStream(64 * 1024);
        in = new PipedOutputStream(pipe);
        StdioGateway gateway = StdioGateway.of(dispatcher, "stdio-user", maxLineBytes, drain);
        serving = runner.submit(() -> {
            gateway.serve(pipe, out);
            return null;
        });
    }

    private void send(String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    @Test
    void answersGoOutAsTheyComeNotInRequestOrder() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        CompletableFuture<Optional<ObjectNode>> slow = dispatcher.gate("tools/call");
        send(request(1, "tools/call"));
        FrontRequest call = dispatcher.next("tools/call");
        send(request(2, "tools/list"));
        assertThat(out.next().path("id").asInt()).isEqualTo(2);
        slow.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
        assertThat(out.next().path("id").asInt()).isEqualTo(1);
        assertThat(call.principal()).isEqualTo("stdio-user");
        assertThat(call.session().id()).isEqualTo("stdio");
    }

    @Test
    void aMalformedLineGetsAParseErrorAndTheLoopGoesOn() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        send("{\"jsonrpc\":\"2.0\",\"id\":1,");
        ObjectNode error = out.next();
        assertThat(error.path("error").path("code").asInt()).isEqualTo(JsonRpc.PARSE_ERROR);
        assertThat(error.path("id").isNull()).isTrue();
        send("[" + request(2, "ping") + "]");
        assertThat(out.next().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_REQUEST);
        send("{\"jsonrpc\":\"2.0\",\"id\":3}");
        assertThat(out.next().path("id").asInt()).isEqualTo(3);
        send(request(4, "ping"));
        assertThat(out.next().path("result").path("method").asText()).isEqualTo("ping");
    }

    @Test
    void aLineOverTheLimitIsRefusedWithoutEndingTheLoop() throws Exception {
        serve(64, Duration.ofSeconds(10));
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(200) + "\"}}");
        assertThat(out.next().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_REQUEST);
        send(request(2, "ping"));
        assertThat(out.next().path("id").asInt()).isEqualTo(2);
    }

    @Test
    void blankLinesAndCarriageReturnsAreTolerated() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        send("");
        send("  ");
        in.write((request(5, "ping") + "\r\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertThat(out.next().path("id").asInt()).isEqualTo(5);
    }

    @Test
    void sessionNotificationsAreWrittenAsLinesAndNotificationsGetNoAnswer() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        FrontSession session = dispatcher.next("notifications/initialized").session();
        ObjectNode status = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0")
                .put("method", "notifications/tasks/status");
        session.notify(status);
        assertThat(out.next().path("method").asText()).isEqualTo("notifications/tasks/status");
        send(request(6, "ping"));
        assertThat(out.next().path("id").asInt()).isEqualTo(6);
    }

    @Test
    void a2026LineIsStateless() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
        assertThat(dispatcher.next("server/discover").session()).isNull();
        assertThat(out.next().path("id").asInt()).isEqualTo(1);
    }

    @Test
    void endOfInputWaitsForPendingAnswersThenClosesTheSession() throws Exception {
        serve(1024, Duration.ofSeconds(10));
        CompletableFuture<Optional<ObjectNode>> slow = dispatcher.gate("tools/call");
        send(request(1, "tools/call"));
        FrontRequest call = dispatcher.next("tools/call");
        in.close();
        assertThat(dispatcher.closedCount()).isZero();
        slow.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
        assertThat(out.next().path("id").asInt()).isEqualTo(1);
        assertThat(dispatcher.nextClosed().id()).isEqualTo("stdio");
        serving.get(10, TimeUnit.SECONDS);
    }

    @Test
    void endOfInputGivesUpOnAnswersThatDoNotComeWithinTheDrain() throws Exception {
        serve(1024, Duration.ZERO);
        dispatcher.gate("tools/call");
        send(request(1, "tools/call"));
        dispatcher.next("tools/call");
        in.close();
        serving.get(10, TimeUnit.SECONDS);
        assertThat(dispatcher.nextClosed().id()).isEqualTo("stdio");
        assertThat(out.written()).isEmpty();
    }

    /** Collects the gateway's output, one parsed line at a time, and checks each line is one JSON-RPC message. */
    private static final class Lines extends OutputStream {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();
        private final StringBuilder all = new StringBuilder();

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                String line = current.toString(StandardCharsets.UTF_8);
                all.append(line).append('\n');
                lines.add(line);
                current.reset();
            } else {
                current.write(b);
            }
        }

        ObjectNode next() throws Exception {
            String line = lines.poll(10, TimeUnit.SECONDS);
            assertThat(line).as("a line within 10 s").isNotNull();
            ObjectNode message = (ObjectNode) WireClient.MAPPER.readTree(line);
            assertThat(message.path("jsonrpc").asText()).isEqualTo("2.0");
            return message;
        }

        synchronized String written() {
            return all.toString() + current.toString(StandardCharsets.UTF_8);
        }
    }
}
