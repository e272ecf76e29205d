package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.testkit.ManualClock;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Who gets in: bearer tokens, Origin and Host (DNS rebinding), the body limit, and what bad bodies get back. */
class HttpSecurityTest {
    private GatewayFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aMissingBearerTokenGets401WithAChallengeAndAJsonRpcBody() {
        fixture = new GatewayFixture(GatewaySettings.defaults().withBearerTokens(Map.of("s3cret", "alice")));
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE).send()) {
            assertThat(response.status()).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"mcp-tasks\"");
            assertThat(response.json().path("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(response.json().path("error").path("message").asText()).startsWith("Unauthorized");
        }
    }

    @Test
    void anUnknownBearerTokenGets401NamingTheInvalidToken() {
        fixture = new GatewayFixture(GatewaySettings.defaults().withBearerTokens(Map.of("s3cret", "alice")));
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Authorization", "Bearer s3cres").send()) {
            assertThat(response.status()).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate"))
                    .isEqualTo("Bearer realm=\"mcp-tasks\", error=\"invalid_token\"");
        }
    }

    @Test
    void aRefusedRequestLeavesTheConnectionUsableForTheNext() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withBearerTokens(Map.of("s3cret", "alice")));
        try (Socket socket = new Socket(fixture.gateway.address().getAddress(), fixture.gateway.address().getPort())) {
            socket.setSoTimeout(10_000);
            byte[] body = GatewayFixture.INITIALIZE.getBytes(StandardCharsets.UTF_8);
            String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json\r\nContent-Length: " + body.length + "\r\n";
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.write((head + "Authorization: Bearer s3cret\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            WireClient.Response refused = WireClient.Response.on(socket);
            assertThat(refused.status()).isEqualTo(401);
            refused.body();
            WireClient.Response admitted = WireClient.Response.on(socket);
            assertThat(admitted.status()).isEqualTo(200);
            assertThat(admitted.json().path("result").path("protocolVersion").asText()).isEqualTo("2025-11-25");
        }
    }

    @Test
    void aKnownBearerTokenPassesItsPrincipal() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults()
                .withBearerTokens(Map.of("token-a", "alice", "token-b", "bob")));
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Authorization", "bearer token-b").send()) {
            assertThat(response.status()).isEqualTo(200);
        }
        assertThat(fixture.dispatcher.next("initialize").principal()).isEqualTo("bob");
    }

    @Test
    void withoutTokensEveryCallerIsTheConfiguredPrincipal() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withAnonymousPrincipal("me"));
        fixture.initialize();
        assertThat(fixture.dispatcher.next("initialize").principal()).isEqualTo("me");
    }

    @Test
    void withoutTokensTheGatewayRefusesANonLoopbackBindAddress() {
        String address = "0.0.0.0";
        assertThatThrownBy(() -> HttpGateway.start(GatewaySettings.defaults().withBind(address, 0),
                new FakeDispatcher(), new ManualClock()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without bearer tokens")
                .hasMessageContaining(address)
                .hasMessageNotContaining("\n");
    }

    @Test
    void aForeignOriginGets403AndLoopbackOrConfiguredOriginsPass() {
        fixture = new GatewayFixture(GatewaySettings.defaults().withAllowedOrigins(Set.of("https://app.example")));
        try (WireClient.Response evil = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Origin", "http://evil.example.com").send()) {
            assertThat(evil.status()).isEqualTo(403);
            assertThat(evil.json().path("error").path("message").asText()).contains("Origin");
        }
        try (WireClient.Response local = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Origin", "http://localhost:5173").send()) {
            assertThat(local.status()).isEqualTo(200);
        }
        try (WireClient.Response configured = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Origin", "https://app.example").send()) {
            assertThat(configured.status()).isEqualTo(200);
        }
    }

    @Test
    void onLoopbackAForeignHostGets403AsTheConformanceRebindingScenarioSendsIt() {
        fixture = new GatewayFixture();
        try (WireClient.Response rebound = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Host", "evil.example.com").header("Origin", "http://evil.example.com").send()) {
            assertThat(rebound.status()).isEqualTo(403);
        }
        try (WireClient.Response hostOnly = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Host", "evil.example.com:" + fixture.gateway.address().getPort()).send()) {
            assertThat(hostOnly.status()).isEqualTo(403);
            assertThat(hostOnly.json().path("error").path("message").asText()).contains("Host");
        }
        String local = "127.0.0.1:" + fixture.gateway.address().getPort();
        try (WireClient.Response valid = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Host", local).header("Origin", "http://" + local).send()) {
            assertThat(valid.status()).isEqualTo(200);
        }
        try (WireClient.Response named = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Host", "localhost").send()) {
            assertThat(named.status()).isEqualTo(200);
        }
    }

    @Test
    void aConfiguredHostPassesTheRebindingCheck() {
        fixture = new GatewayFixture(GatewaySettings.defaults().withAllowedHosts(Set.of("gateway.internal")));
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Host", "gateway.internal:8443").send()) {
            assertThat(response.status()).isEqualTo(200);
        }
    }

    @Test
    void aBodyOverTheLimitGets413BeforeItIsSent() {
        fixture = new GatewayFixture(GatewaySettings.defaults().withMaxRequestBytes(1024));
        // Only the head goes out: the answer arrives although the declared megabyte never does.
        try (WireClient.Response response = fixture.client.post("").sendHeadOnly(1024 * 1024)) {
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.json().path("error").path("message").asText()).contains("1024");
        }
    }

    @Test
    void aChunkedBodyGrowingOverTheLimitGets413() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withMaxRequestBytes(1024));
        try (Socket socket = new Socket(fixture.gateway.address().getAddress(), fixture.gateway.address().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            byte[] chunk = "x".repeat(2048).getBytes(StandardCharsets.ISO_8859_1);
            out.write(("800\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(chunk);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
            assertThat(answer).isEqualTo("HTTP/1.1 413");
        }
    }

    @Test
    void malformedJsonGetsAParseErrorWithoutAStackTrace() {
        fixture = new GatewayFixture();
        try (WireClient.Response response = fixture.client.post("{\"jsonrpc\":\"2.0\",\"id\":1,").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.PARSE_ERROR);
            assertThat(response.json().path("id").isNull()).isTrue();
            assertThat(response.body()).doesNotContain("at com.").doesNotContain("Exception");
        }
    }

    @Test
    void anEmptyBodyIsAParseError() {
        fixture = new GatewayFixture();
        try (WireClient.Response response = fixture.client.post("").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.PARSE_ERROR);
        }
    }

    @Test
    void aBatchGetsAnInvalidRequestError() {
        fixture = new GatewayFixture();
        try (WireClient.Response response = fixture.client
                .post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_REQUEST);
        }
    }

    @Test
    void aBodyThatIsNotJsonRpcGetsAnInvalidRequestErrorWithItsId() {
        fixture = new GatewayFixture();
        try (WireClient.Response response = fixture.client.post("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}")
                .send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(response.json().path("id").asInt()).isEqualTo(7);
        }
    }

    @Test
    void otherPathsAndMethodsAreRefused() {
        fixture = new GatewayFixture();
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE).path("/other").send()) {
            assertThat(response.status()).isEqualTo(404);
        }
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE)
                .header("Content-Type", "text/plain").send()) {
            assertThat(response.status()).isEqualTo(415);
        }
    }

    @Test
    void aDispatcherThatThrowsGivesAOneLineInternalError() {
        fixture = new GatewayFixture();
        String session = fixture.initialize();
        fixture.dispatcher.answer("tools/list", request -> {
            throw new IllegalStateException("database unavailable\nsecond line");
        });
        try (WireClient.Response response = fixture.request(session, 2, "tools/list").send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.json().path("error").path("code").asInt()).isEqualTo(JsonRpc.INTERNAL_ERROR);
            assertThat(response.json().path("error").path("message").asText())
                    .isEqualTo("Internal error: database unavailable");
            assertThat(response.json().path("id").asInt()).isEqualTo(2);
        }
    }

}
