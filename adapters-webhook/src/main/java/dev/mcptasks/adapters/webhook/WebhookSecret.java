package dev.mcptasks.adapters.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The signing key of a webhook, from its configured text: the Standard Webhooks form {@code whsec_<base64>} is the
 * base64-decoded bytes (what the receiver's Standard Webhooks library decodes too); any other text is its own UTF-8
 * bytes. Either way at least {@link #MIN_BYTES} bytes, as the Standard Webhooks specification advises. The key and
 * its text are never printed: {@link #toString} and every error message leave them out.
 */
public final class WebhookSecret {
    /** The shortest key accepted (the specification's lower bound). */
    public static final int MIN_BYTES = 24;
    static final String PREFIX = "whsec_";

    private final String text;
    private final byte[] key;

    private WebhookSecret(String text, byte[] key) {
        this.text = text;
        this.key = key;
    }

    /** Parses the configured secret; a bad one fails with a one-line message that does not contain it. */
    public static WebhookSecret parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("secret: missing (whsec_<base64> or at least " + MIN_BYTES
                    + " bytes of text)");
        }
        byte[] key;
        if (text.startsWith(PREFIX)) {
            try {
                key = Base64.getDecoder().decode(text.substring(PREFIX.length()));
            } catch (IllegalArgumentException e) {
                // the decoder's message quotes the offending character: not repeated here
                throw new IllegalArgumentException("secret: the part after whsec_ is not valid base64");
            }
        } else {
            key = text.getBytes(StandardCharsets.UTF_8);
        }
        if (key.length < MIN_BYTES) {
            throw new IllegalArgumentException("secret: " + key.length + " bytes is too short, at least " + MIN_BYTES
                    + (text.startsWith(PREFIX) ? " (after base64 decoding)" : ""));
        }
        return new WebhookSecret(text, key);
    }

    /** The HMAC key (a copy). */
    byte[] key() {
        return key.clone();
    }

    /** {@code text} with every occurrence of this secret (as configured, and its base64 part) blanked out. */
    String redact(String text) {
        if (text == null) {
            return null;
        }
        String redacted = text.replace(this.text, "(secret)");
        if (this.text.startsWith(PREFIX)) {
            redacted = redacted.replace(this.text.substring(PREFIX.length()), "(secret)");
        }
        return redacted;
    }

    @Override
    public boolean equals(Object other) {
        // constant time, so a comparison leaks no common prefix length
        return other instanceof WebhookSecret secret && MessageDigest.isEqual(key, secret.key);
    }

    @Override
    public int hashCode() {
        return key.length; // no bits of the key in a hash code
    }

    @Override
    public String toString() {
        return "(secret)";
    }
}
