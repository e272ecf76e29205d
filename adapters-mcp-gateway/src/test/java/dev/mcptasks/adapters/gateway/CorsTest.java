package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A browser client on an admitted origin gets real CORS: its preflight is answered without credentials, and its
 * answers name the origin and expose the session id. Another origin is still refused.
 */
class CorsTest {
    private static final String APP = "https://app.example";
    private static final String TOKEN = "alice-token-0123456789abcdef";
    private final GatewayFixture fixture = new GatewayFixture(GatewaySettings.defaults()
            .withAllowedOrigins(Set.of(APP)).withBearerTokens(Map.of(TOKEN, "alice")));

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aPreflightFromAnAdmittedOriginIsAnsweredWithoutCredentials() {
        try (WireClient.Response response = fixture.client.options().header("Origin", APP)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization, content-type, mcp-session-id").send()) {
            assertThat(response.status()).isEqualTo(204);
            assertThat(response.header("Access-Control-Allow-Origin")).isEqualTo(APP);
            assertThat(response.header("Access-Control-Allow-Methods")).contains("POST").contains("DELETE");
            assertThat(response.header("Access-Control-Allow-Headers")).contains("Authorization")
                    .contains("Mcp-Session-Id").contains("MCP-Protocol-Version");
        }
    }

    @Test
    void anAnswerToAnAdmittedOriginNamesItAndExposesTheSessionId() {
        try (WireClient.Response response = fixture.client.post(GatewayFixture.INITIALIZE).header("Origin", APP)
                .header("Authorization", "Bearer " + TOKEN).send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Access-Control-Allow-Origin")).isEqualTo(APP);
            assertThat(response.header("Access-Control-Expose-Headers")).contains("Mcp-Session-Id");
        }
        try (WireClient.Response refused = fixture.client.post(GatewayFixture.INITIALIZE).header("Origin", APP)
                .send()) {
            assertThat(refused.status()).as("no token").isEqualTo(401);
            assertThat(refused.header("Access-Control-Allow-Origin")).as("the browser may read the refusal")
                    .isEqualTo(APP);
        }
    }

    @Test
    void anotherOriginIsRefusedAndItsPreflightToo() {
        try (WireClient.Response response = fixture.client.options().header("Origin", "https://evil.example")
                .header("Access-Control-Request-Method", "POST").send()) {
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.header("Access-Control-Allow-Origin")).isNull();
        }
    }
}
