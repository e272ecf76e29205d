package dev.mcptasks.adapters.webhook;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One webhook endpoint: where events go, the key they are signed with, how long one delivery may take, its
 * circuit breaker and extra request headers (an {@code Authorization} for a gateway in front of the receiver, say).
 * {@link #toString} names the endpoint by its origin only and the headers by name only: webhook URLs often carry a
 * token in their path and header values are often credentials, and the secret is never printed.
 *
 * @param url an absolute {@code http} or {@code https} URL, without user info
 * @param secret the signing key
 * @param timeout how long one delivery may take, from connecting to the end of the answer's body (a 2xx whose body
 *     does not end in time counts as timed out); keep it below the runtime's sink timeout, so a slow endpoint is
 *     reported, and counted by its breaker, as this endpoint's timeout
 * @param breaker the endpoint's circuit breaker
 * @param headers extra request headers; never the ones this sink sets itself, nor those HTTP manages
 */
public record WebhookSettings(URI url, WebhookSecret secret, Duration timeout, BreakerSettings breaker,
        Map<String, String> headers) {
    /** Per delivery, unless configured: well below the runtime's 30 s sink timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** Headers the sink sets itself, or that the HTTP client manages (lower case). */
    static final Set<String> RESERVED_HEADERS = Set.of("content-type", "webhook-id", "webhook-timestamp",
            "webhook-signature", "user-agent", "connection", "content-length", "expect", "host", "upgrade");

    public WebhookSettings {
        Objects.requireNonNull(url, "url: missing");
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("url: must be an absolute http or https URL, was "
                    + (url.getScheme() == null ? "a relative URL" : "scheme " + url.getScheme()));
        }
        if (url.getHost() == null) {
            throw new IllegalArgumentException("url: has no host");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("url: must not carry user info (put credentials in a header)");
        }
        Objects.requireNonNull(secret, "secret: missing");
        Objects.requireNonNull(timeout, "timeout: missing");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: must be positive, was " + timeout);
        }
        Objects.requireNonNull(breaker, "breaker: missing");
        headers = copyHeaders(headers);
    }

    /** An endpoint with the default timeout and breaker and no extra headers. */
    public static WebhookSettings of(String url, String secret) {
        return new WebhookSettings(parseUrl(url), WebhookSecret.parse(secret), DEFAULT_TIMEOUT,
                BreakerSettings.defaults(), Map.of());
    }

    /** Parses a configured URL; a malformed one fails with a one-line message naming the field. */
    public static URI parseUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("url: missing");
        }
        try {
            return new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("url: not a URL: " + e.getReason() + " at index " + e.getIndex());
        }
    }

    /** How details and logs name the endpoint: scheme, host and port, never the path or query. */
    public String endpoint() {
        return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getRawAuthority();
    }

    @Override
    public String toString() {
        return "WebhookSettings[endpoint=" + endpoint() + ", secret=" + secret + ", timeout=" + timeout
                + ", breaker=" + breaker + ", headers=" + headers.keySet() + "]";
    }

    private static Map<String, String> copyHeaders(Map<String, String> headers) {
        if (headers == null) {
            return Map.of();
        }
        // case-insensitive, as HTTP header names are: two spellings of one name are one header
        TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, value) -> {
            if (name == null || !isToken(name)) {
                throw new IllegalArgumentException("headers: not a valid header name: " + name);
            }
            if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("headers: " + name + " is set by the webhook sink itself");
            }
            if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                // the value is not repeated: it may be a credential
                throw new IllegalArgumentException("headers: the value of " + name
                        + " is missing or contains a line break");
            }
            if (copy.put(name, value) != null) {
                throw new IllegalArgumentException("headers: " + name + " is given twice");
            }
        });
        return java.util.Collections.unmodifiableMap(copy);
    }

    /** An RFC 9110 token: visible ASCII except separators. */
    private static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= 32 || c >= 127 || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }
}
