package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pipelined HTTP/1.1 requests are answered in the order they were sent, although the gateway finishes them in
 * another order: the client pairs responses with requests by order alone.
 */
class HttpPipeliningTest {
    // answers stay JSON: the test waits up to a second for a wrongly early answer, as long as the default wait before
    // an SSE stream, and a loaded machine then got the slow call's answer as a stream
    private final GatewayFixture fixture = new GatewayFixture(GatewaySettings.defaults().withStreaming(
            new GatewaySettings.Streaming(Duration.ofMinutes(1), Duration.ofSeconds(15), Duration.ofSeconds(1),
                    Duration.ZERO)));

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aQuickRequestBehindASlowOneIsAnsweredAfterIt() throws Exception {
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> held = fixture.dispatcher.gate("slow");
        try (Socket socket = new Socket(fixture.gateway.address().getAddress(),
                fixture.gateway.address().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((post(session, 2, "slow") + post(session, 3, "ping")).getBytes(StandardCharsets.UTF_8));
            out.flush();
            fixture.dispatcher.next("slow");
            // without ordering the ping is answered now, ahead of the slow call: give its answer the time to arrive
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (socket.getInputStream().available() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }

            held.complete(Optional.of(FrontJson.object().put("jsonrpc", "2.0").put("id", 2).set("result",
                    FrontJson.object().put("slow", true))));

            WireClient.Response first = WireClient.Response.on(socket);
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.body()).contains("\"id\":2").contains("\"slow\":true");
            WireClient.Response second = WireClient.Response.on(socket);
            assertThat(second.status()).isEqualTo(200);
            assertThat(second.body()).contains("\"id\":3");
        }
    }

    private String post(String session, int id, String method) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
        return "POST " + RequestGate.PATH + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + fixture.gateway.address().getPort() + "\r\n"
                + "Accept: application/json, text/event-stream\r\n"
                + "Content-Type: application/json\r\n"
                + HttpReplies.SESSION_ID + ": " + session + "\r\n"
                + "MCP-Protocol-Version: 2025-11-25\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }
}
