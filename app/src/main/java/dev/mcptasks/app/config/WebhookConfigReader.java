package dev.mcptasks.app.config;

import dev.mcptasks.adapters.webhook.BreakerSettings;
import dev.mcptasks.adapters.webhook.WebhookSecret;
import dev.mcptasks.adapters.webhook.WebhookSettings;
import java.time.Duration;
import java.util.Set;

/**
 * Reads {@code notifications.webhook}: the endpoint the worker POSTs attention events to. {@code url}, {@code secret}
 * and header values take {@code ${env:NAME}}. Every problem is one {@link ConfigException} naming the key; the
 * adapter's own checks (scheme, secret length, header names) are turned into one too. Neither the secret nor a header
 * value nor the url's path (it often carries a token) ever reaches a message.
 */
final class WebhookConfigReader {
    private static final Set<String> NOTIFICATIONS_KEYS = Set.of("webhook");
    private static final Set<String> KEYS = Set.of("url", "secret", "timeoutSeconds", "headers", "breaker");
    private static final Set<String> BREAKER_KEYS = Set.of("failureRatePercent", "minimumCalls", "openWaitSeconds");

    private final EnvSubstitution substitution;

    WebhookConfigReader(EnvSubstitution substitution) {
        this.substitution = substitution;
    }

    /** The webhook of {@code notifications}, or null when none is configured. */
    WebhookSettings read(JsonSection notifications, RuntimeConfig runtime) {
        notifications.requireOnly(NOTIFICATIONS_KEYS);
        if (!notifications.has("webhook")) {
            return null;
        }
        JsonSection webhook = notifications.section("webhook");
        webhook.requireOnly(KEYS);
        String url = substitution.resolve(webhook.path("url"), webhook.requiredString("url"));
        String secret = substitution.resolve(webhook.path("secret"), webhook.requiredString("secret"));
        int limit = runtime.notificationTimeoutSeconds();
        int timeout = webhook.intIn("timeoutSeconds", defaultTimeout(limit), 1, 600);
        if (timeout >= limit) {
            // the runtime abandons a sink call at its own timeout: a webhook timeout at or above it never fires, and
            // a slow endpoint would not be counted by its breaker
            throw new ConfigException(webhook.path("timeoutSeconds"), webhook.path("timeoutSeconds") + " ("
                    + timeout + ") must be below runtime.notificationTimeoutSeconds (" + limit + ")");
        }
        BreakerSettings breaker = breaker(webhook.section("breaker"));
        var headers = substitution.resolveAll(webhook.path("headers"), webhook.stringMap("headers"));
        try {
            return new WebhookSettings(WebhookSettings.parseUrl(url), WebhookSecret.parse(secret),
                    Duration.ofSeconds(timeout), breaker, headers);
        } catch (IllegalArgumentException e) {
            // the adapter's messages start with the field ("url: ...", "secret: ...", "headers: ...") and leave out
            // secrets and header values
            throw adapterError(webhook, e);
        }
    }

    /** The adapter's default (10 s), or just below a shorter runtime timeout. */
    private static int defaultTimeout(int limit) {
        return (int) Math.min(WebhookSettings.DEFAULT_TIMEOUT.toSeconds(), Math.max(1, limit - 1));
    }

    private static BreakerSettings breaker(JsonSection section) {
        section.requireOnly(BREAKER_KEYS);
        BreakerSettings defaults = BreakerSettings.defaults();
        return new BreakerSettings(
                section.intIn("failureRatePercent", Math.round(defaults.failureRatePercent()), 1, 100),
                section.intIn("minimumCalls", defaults.minimumCalls(), 1, 1000),
                Duration.ofSeconds(section.intIn("openWaitSeconds", (int) defaults.openWait().toSeconds(), 1,
                        86_400)));
    }

    private static ConfigException adapterError(JsonSection webhook, IllegalArgumentException e) {
        String message = e.getMessage() == null ? "invalid" : e.getMessage();
        int colon = message.indexOf(": ");
        String field = colon > 0 ? message.substring(0, colon) : "";
        String key = KEYS.contains(field) ? webhook.path(field) : webhook.path();
        String detail = colon > 0 && KEYS.contains(field) ? message.substring(colon + 2) : message;
        return new ConfigException(key, key + ": " + detail);
    }
}
