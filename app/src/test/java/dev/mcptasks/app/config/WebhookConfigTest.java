package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.adapters.webhook.BreakerSettings;
import dev.mcptasks.adapters.webhook.WebhookSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code notifications.webhook}: the endpoint, its secret and headers from the environment, its timeout below the
 * runtime's sink timeout, its breaker; and one error naming the key for each mistake, with no secret in it.
 */
class WebhookConfigTest {
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String TEXT_SECRET = "a-plain-text-secret-of-enough-bytes-1234";
    private final ConfigLoader loader = new ConfigLoader(Map.of("HOOK_SECRET", SECRET, "HOOK_HOST", "hooks.example",
            "HOOK_TOKEN", "tok3n-value", "SHORT", "whsec_c2hvcnQ=")::get, Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    private AppConfig webhook(String members) {
        return parse("{\"notifications\": {\"webhook\": {" + members + "}}}");
    }

    @Test
    void withoutNotificationsThereIsNoWebhook() {
        assertThat(parse("{}").webhookSettings()).isEmpty();
        assertThat(parse("{\"notifications\": {}}").webhookSettings()).isEmpty();
        assertThat(AppConfig.defaults().webhookSettings()).isEmpty();
    }

    @Test
    void aMinimalWebhookTakesTheAdapterDefaults() {
        WebhookSettings settings = webhook("\"url\": \"https://hooks.example/in\", \"secret\": \"" + SECRET + "\"")
                .webhookSettings().orElseThrow();

        assertThat(settings.url()).isEqualTo(URI.create("https://hooks.example/in"));
        assertThat(settings.secret()).isEqualTo(WebhookSettings.of("https://x", SECRET).secret());
        assertThat(settings.timeout()).isEqualTo(WebhookSettings.DEFAULT_TIMEOUT);
        assertThat(settings.breaker()).isEqualTo(BreakerSettings.defaults());
        assertThat(settings.headers()).isEmpty();
    }

    @Test
    void everyKeyIsReadAndUrlSecretAndHeaderValuesComeFromTheEnvironment() {
        WebhookSettings settings = parse("""
                { "notifications": { "webhook": {
                    "url": "https://${env:HOOK_HOST}/in/${env:HOOK_TOKEN}",
                    "secret": "${env:HOOK_SECRET}",
                    "timeoutSeconds": 4,
                    "headers": { "Authorization": "Bearer ${env:HOOK_TOKEN}", "X-Team": "ops" },
                    "breaker": { "failureRatePercent": 75, "minimumCalls": 8, "openWaitSeconds": 90 } } } }
                """).webhookSettings().orElseThrow();

        assertThat(settings.url()).isEqualTo(URI.create("https://hooks.example/in/tok3n-value"));
        assertThat(settings.secret()).isEqualTo(WebhookSettings.of("https://x", SECRET).secret());
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(settings.headers()).containsExactlyInAnyOrderEntriesOf(
                Map.of("Authorization", "Bearer tok3n-value", "X-Team", "ops"));
        assertThat(settings.breaker()).isEqualTo(new BreakerSettings(75, 8, Duration.ofSeconds(90)));
    }

    @Test
    void theDefaultTimeoutStaysBelowAShortRuntimeSinkTimeout() {
        AppConfig config = parse("{\"runtime\": {\"notificationTimeoutSeconds\": 5}, \"notifications\": {\"webhook\":"
                + " {\"url\": \"http://127.0.0.1:9/\", \"secret\": \"" + TEXT_SECRET + "\"}}}");

        assertThat(config.webhookSettings().orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void aTimeoutNotBelowTheRuntimeSinkTimeoutIsRefused() {
        assertError("{\"runtime\": {\"notificationTimeoutSeconds\": 20}, \"notifications\": {\"webhook\": {\"url\":"
                + " \"http://h/\", \"secret\": \"" + SECRET + "\", \"timeoutSeconds\": 20}}}",
                "notifications.webhook.timeoutSeconds",
                "notifications.webhook.timeoutSeconds (20) must be below runtime.notificationTimeoutSeconds (20)");
        assertError(withKey("\"timeoutSeconds\": 31"), "notifications.webhook.timeoutSeconds",
                "must be below runtime.notificationTimeoutSeconds (30)");
        assertError(withKey("\"timeoutSeconds\": 0"), "notifications.webhook.timeoutSeconds", "between 1 and 600");
        assertError(withKey("\"timeoutSeconds\": \"5\""), "notifications.webhook.timeoutSeconds",
                "must be an integer");
    }

    @Test
    void unknownKeysAreRefusedNamingThem() {
        assertError("{\"notifications\": {\"webhok\": {}}}", "notifications.webhok", "allowed here: webhook");
        assertError(withKey("\"retries\": 3"), "notifications.webhook.retries", "unknown key");
        assertError(withKey("\"breaker\": {\"openWait\": 3}"), "notifications.webhook.breaker.openWait",
                "allowed here: failureRatePercent, minimumCalls, openWaitSeconds");
        assertError("{\"notifications\": {\"webhook\": \"http://h/\"}}", "notifications.webhook",
                "must be an object");
    }

    @Test
    void missingUrlOrSecretIsRefused() {
        assertError("{\"notifications\": {\"webhook\": {\"secret\": \"" + SECRET + "\"}}}",
                "notifications.webhook.url", "notifications.webhook.url is required");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\"}}}",
                "notifications.webhook.secret", "notifications.webhook.secret is required");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\": \"${env:NOPE}\"}}}",
                "notifications.webhook.secret", "environment variable NOPE, which is not set");
    }

    @Test
    void theAdaptersChecksBecomeOneLineErrorsNamingTheKey() {
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"ftp://h/x\", \"secret\": \"" + SECRET + "\"}}}",
                "notifications.webhook.url", "notifications.webhook.url: must be an absolute http or https URL");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://u:p@h/\", \"secret\": \"" + SECRET
                + "\"}}}", "notifications.webhook.url", "must not carry user info");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://h /\", \"secret\": \"" + SECRET + "\"}}}",
                "notifications.webhook.url", "notifications.webhook.url: not a URL");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\": \"${env:SHORT}\"}}}",
                "notifications.webhook.secret", "notifications.webhook.secret: 5 bytes is too short");
        assertError("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\": \"whsec_%%%%\"}}}",
                "notifications.webhook.secret", "is not valid base64");
        assertError(withKey("\"headers\": {\"webhook-id\": \"x\"}"), "notifications.webhook.headers",
                "notifications.webhook.headers: webhook-id is set by the webhook sink itself");
        assertError(withKey("\"headers\": {\"Bad Name\": \"x\"}"), "notifications.webhook.headers",
                "not a valid header name");
        assertError(withKey("\"headers\": {\"X-A\": 3}"), "notifications.webhook.headers.X-A", "must be a string");
    }

    @Test
    void badBreakerValuesAreRefusedNamingTheKey() {
        assertError(withKey("\"breaker\": {\"failureRatePercent\": 0}"),
                "notifications.webhook.breaker.failureRatePercent", "between 1 and 100, was 0");
        assertError(withKey("\"breaker\": {\"failureRatePercent\": 101}"),
                "notifications.webhook.breaker.failureRatePercent", "between 1 and 100, was 101");
        assertError(withKey("\"breaker\": {\"minimumCalls\": 0}"), "notifications.webhook.breaker.minimumCalls",
                "between 1 and 1000, was 0");
        assertError(withKey("\"breaker\": {\"openWaitSeconds\": 0}"),
                "notifications.webhook.breaker.openWaitSeconds", "between 1 and 86400, was 0");
    }

    @Test
    void noSecretHeaderValueOrUrlPathIsEverPrintedOrInAnError() {
        AppConfig config = parse("{\"notifications\": {\"webhook\": {\"url\": \"https://hooks.example/in/"
                + "${env:HOOK_TOKEN}\", \"secret\": \"${env:HOOK_SECRET}\", \"headers\": {\"Authorization\":"
                + " \"Bearer ${env:HOOK_TOKEN}\"}}}}");
        assertThat(config.toString()).contains("https://hooks.example", "Authorization")
                .doesNotContain("tok3n-value", SECRET, SECRET.substring("whsec_".length()));

        assertThatThrownBy(() -> parse("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\":"
                + " \"whsec_short-secret%\"}}}")).message().doesNotContain("short-secret");
        assertThatThrownBy(() -> parse("{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\": \""
                + SECRET + "\", \"headers\": {\"X-A\": \"line\\nbreak-tok3n\"}}}}"))
                .hasMessageContaining("notifications.webhook.headers: the value of X-A")
                .message().doesNotContain("tok3n");
    }

    private static String withKey(String member) {
        return "{\"notifications\": {\"webhook\": {\"url\": \"http://h/\", \"secret\": \"" + SECRET + "\", " + member
                + "}}}";
    }

    private void assertError(String json, String key, String messagePart) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("test.json: ")
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", SECRET))
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
