package dev.mcptasks.adapters.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookSettingsTest {
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String KEY_TEXT = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void defaultsAreATenSecondTimeoutAndTheDefaultBreaker() {
        WebhookSettings settings = WebhookSettings.of("https://hooks.example.com/in", SECRET);

        assertThat(settings.url()).isEqualTo(URI.create("https://hooks.example.com/in"));
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.breaker()).isEqualTo(new BreakerSettings(50, 5, Duration.ofSeconds(60)));
        assertThat(settings.headers()).isEmpty();
        assertThat(settings.secret()).isEqualTo(WebhookSecret.parse(SECRET));
    }

    @Test
    void onlyAbsoluteHttpAndHttpsUrlsWithoutUserInfo() {
        assertThatThrownBy(() -> WebhookSettings.of("ftp://example.com/x", SECRET))
                .hasMessage("url: must be an absolute http or https URL, was scheme ftp");
        assertThatThrownBy(() -> WebhookSettings.of("/relative", SECRET))
                .hasMessage("url: must be an absolute http or https URL, was a relative URL");
        assertThatThrownBy(() -> WebhookSettings.of("https://user:pw@example.com/x", SECRET))
                .hasMessage("url: must not carry user info (put credentials in a header)");
        assertThatThrownBy(() -> WebhookSettings.of("https://exa mple.com", SECRET))
                .hasMessageStartingWith("url: not a URL: ");
        assertThatThrownBy(() -> WebhookSettings.of(" ", SECRET)).hasMessage("url: missing");
        assertThat(WebhookSettings.of("HTTP://Example.com:8080/x?token=t", SECRET).endpoint())
                .isEqualTo("http://Example.com:8080");
    }

    @Test
    void theTimeoutMustBePositive() {
        assertThatThrownBy(() -> new WebhookSettings(URI.create("https://example.com"), WebhookSecret.parse(SECRET),
                Duration.ZERO, BreakerSettings.defaults(), Map.of())).hasMessage("timeout: must be positive, was PT0S");
    }

    @Test
    void breakerSettingsAreValidatedFieldByField() {
        assertThatThrownBy(() -> new BreakerSettings(0, 5, Duration.ofSeconds(1)))
                .hasMessage("breaker.failureRatePercent: must be above 0 and at most 100, was 0.0");
        assertThatThrownBy(() -> new BreakerSettings(101, 5, Duration.ofSeconds(1)))
                .hasMessage("breaker.failureRatePercent: must be above 0 and at most 100, was 101.0");
        assertThatThrownBy(() -> new BreakerSettings(50, 0, Duration.ofSeconds(1)))
                .hasMessage("breaker.minimumCalls: must be at least 1, was 0");
        assertThatThrownBy(() -> new BreakerSettings(50, 5, Duration.ofSeconds(-1)))
                .hasMessage("breaker.openWait: must be positive, was PT-1S");
    }

    @Test
    void extraHeadersMayNotReplaceTheSinksOwnNorCarryLineBreaks() {
        assertThatThrownBy(() -> withHeaders(Map.of("Webhook-Signature", "v1,forged")))
                .hasMessage("headers: Webhook-Signature is set by the webhook sink itself");
        assertThatThrownBy(() -> withHeaders(Map.of("Host", "elsewhere")))
                .hasMessage("headers: Host is set by the webhook sink itself");
        assertThatThrownBy(() -> withHeaders(Map.of("Bad Name", "x")))
                .hasMessage("headers: not a valid header name: Bad Name");
        assertThatThrownBy(() -> withHeaders(Map.of("Authorization", "Bearer s3cr3t\r\nX-Injected: 1")))
                .hasMessage("headers: the value of Authorization is missing or contains a line break");
        assertThatThrownBy(() -> withHeaders(Map.of("X-A", "1", "x-a", "2")))
                .hasMessageEndingWith(" is given twice");
    }

    @Test
    void theSecretIsWhsecBase64OrRawTextOfAtLeast24Bytes() {
        assertThatThrownBy(() -> WebhookSecret.parse("")).hasMessageStartingWith("secret: missing");
        assertThatThrownBy(() -> WebhookSecret.parse("whsec_not*base64!"))
                .hasMessage("secret: the part after whsec_ is not valid base64");
        assertThatThrownBy(() -> WebhookSecret.parse("whsec_c2hvcnQ="))
                .hasMessage("secret: 5 bytes is too short, at least 24 (after base64 decoding)");
        assertThatThrownBy(() -> WebhookSecret.parse("short raw secret"))
                .hasMessage("secret: 16 bytes is too short, at least 24");
        assertThat(WebhookSecret.parse("a raw secret of enough bytes")).isNotNull();
    }

    @Test
    void noMessageNorToStringShowsTheSecretThePathOrAHeaderValue() {
        WebhookSettings settings = new WebhookSettings(URI.create("https://hooks.example.com/services/T0/B0/tok"),
                WebhookSecret.parse(SECRET), Duration.ofSeconds(3), BreakerSettings.defaults(),
                Map.of("Authorization", "Bearer s3cr3t"));

        assertThat(settings.toString())
                .isEqualTo("WebhookSettings[endpoint=https://hooks.example.com, secret=(secret), timeout=PT3S, "
                        + "breaker=BreakerSettings[failureRatePercent=50.0, minimumCalls=5, openWait=PT1M], "
                        + "headers=[Authorization]]")
                .doesNotContain(KEY_TEXT, "s3cr3t", "/services");
        assertThat(WebhookSecret.parse(SECRET).toString()).isEqualTo("(secret)");
        assertThatThrownBy(() -> WebhookSecret.parse("whsec_" + KEY_TEXT + "!"))
                .message().doesNotContain(KEY_TEXT);
        assertThatThrownBy(() -> WebhookSecret.parse("my password"))
                .message().doesNotContain("my password");
    }

    private static WebhookSettings withHeaders(Map<String, String> headers) {
        return new WebhookSettings(URI.create("https://example.com"), WebhookSecret.parse(SECRET),
                Duration.ofSeconds(1), BreakerSettings.defaults(), headers);
    }
}
