package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The transports' small parts: settings, tokens, the rebinding guard, header decoding, line splitting. */
class GatewayUnitsTest {

    @Test
    void settingsDefaultToLoopbackWithoutTokensAndHideTokensWhenPrinted() {
        GatewaySettings defaults = GatewaySettings.defaults();
        assertThat(defaults.bindHost()).isEqualTo("127.0.0.1");
        assertThat(defaults.port()).isZero();
        assertThat(defaults.bearerTokens()).isEmpty();
        assertThat(defaults.maxRequestBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(defaults.anonymousPrincipal()).isEqualTo("local");
        assertThat(defaults.streaming().keepAliveEvery()).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.streaming().pollAfter()).isZero();
        assertThat(defaults.withBearerTokens(Map.of("hunter2", "alice")).toString())
                .doesNotContain("hunter2").contains("1 configured");
    }

    @Test
    void settingsRefuseNonsense() {
        GatewaySettings defaults = GatewaySettings.defaults();
        assertThatThrownBy(() -> defaults.withBind("127.0.0.1", 70_000)).hasMessageContaining("port");
        assertThatThrownBy(() -> defaults.withMaxRequestBytes(0)).hasMessageContaining("maxRequestBytes");
        assertThatThrownBy(() -> defaults.withBearerTokens(Map.of(" ", "alice"))).hasMessageContaining("blank");
        assertThatThrownBy(() -> defaults.withAnonymousPrincipal("")).hasMessageContaining("anonymousPrincipal");
        assertThatThrownBy(() -> new GatewaySettings.Streaming(Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO,
                Duration.ZERO)).hasMessageContaining("sseAfter");
    }

    @Test
    void bearerTokensMapToPrincipalsAndTellMissingFromUnknown() {
        BearerTokens tokens = new BearerTokens(Map.of("alpha", "alice", "beta", "bob"), "local");
        assertThat(tokens.judge("Bearer beta")).isEqualTo(new BearerTokens.Verdict.Admitted("bob"));
        assertThat(tokens.judge("BEARER alpha")).isEqualTo(new BearerTokens.Verdict.Admitted("alice"));
        assertThat(tokens.judge("Bearer alphа")).isInstanceOf(BearerTokens.Verdict.Unknown.class);
        assertThat(tokens.judge("Basic YWxwaGE=")).isInstanceOf(BearerTokens.Verdict.Missing.class);
        assertThat(tokens.judge(null)).isInstanceOf(BearerTokens.Verdict.Missing.class);
        assertThat(new BearerTokens(Map.of(), "local").judge(null))
                .isEqualTo(new BearerTokens.Verdict.Admitted("local"));
    }

    @Test
    void theRebindingGuardKnowsLoopbackNamesWithAndWithoutPorts() {
        RebindingGuard loopback = new RebindingGuard(true, Set.of(), Set.of());
        assertThat(loopback.refusal("localhost:8080", null)).isEmpty();
        assertThat(loopback.refusal("[::1]:8080", "http://[::1]:8080")).isEmpty();
        assertThat(loopback.refusal("127.0.0.1", "https://127.0.0.1")).isEmpty();
        assertThat(loopback.refusal(null, null)).isPresent();
        assertThat(loopback.refusal("127.0.0.1.evil.com", null)).isPresent();
        assertThat(loopback.refusal("localhost", "http://localhost.evil.com")).isPresent();
        assertThat(loopback.refusal("localhost", "null")).isPresent();

        RebindingGuard exposed = new RebindingGuard(false, Set.of("https://app.example"), Set.of());
        assertThat(exposed.refusal("gateway.example:443", null)).isEmpty();
        assertThat(exposed.refusal("gateway.example", "http://localhost")).isPresent();
        assertThat(exposed.refusal("gateway.example", "https://app.example")).isEmpty();
    }

    @Test
    void headerValuesDecodeTheBase64SentinelOnly() {
        assertThat(Headers2026.decode("plain-name")).contains("plain-name");
        assertThat(Headers2026.decode("=?base64?w6lsw6h2ZQ==?=")).contains("élève");
        assertThat(Headers2026.decode("=?base64?not base64?=")).isEmpty();
        assertThat(Headers2026.decode("=?base64?/w==?=")).as("not UTF-8").isEmpty();
    }

    @Test
    void linesSplitOnNewlinesAndOverlongOnesAreSkippedWhole() throws Exception {
        String input = "one\r\n" + "x".repeat(50) + "\nthree\nlast";
        LineReader lines = new LineReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), 10);
        assertThat(text(lines.next())).isEqualTo("one");
        assertThat(lines.next()).isInstanceOf(LineReader.Line.TooLong.class);
        assertThat(text(lines.next())).isEqualTo("three");
        assertThat(text(lines.next())).isEqualTo("last");
        assertThat(lines.next()).isNull();
    }

    private static String text(LineReader.Line line) {
        return new String(((LineReader.Line.Text) line).bytes(), StandardCharsets.UTF_8);
    }
}
