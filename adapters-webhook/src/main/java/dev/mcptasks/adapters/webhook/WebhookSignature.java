package dev.mcptasks.adapters.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature: {@code v1,<base64 of HMAC-SHA256(key, id "." timestamp "." body)>}, over the exact
 * body bytes sent. A {@link Mac} is not thread-safe, so each signature gets its own (cheap next to a request).
 */
final class WebhookSignature {
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    WebhookSignature(WebhookSecret secret) {
        this.key = new SecretKeySpec(secret.key(), ALGORITHM);
    }

    /** The {@code webhook-signature} value for one request. */
    String sign(String id, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            // every Java platform provides HmacSHA256 and accepts any non-empty key for it
            throw new IllegalStateException("HMAC-SHA256 is not available: " + e, e);
        }
    }
}
