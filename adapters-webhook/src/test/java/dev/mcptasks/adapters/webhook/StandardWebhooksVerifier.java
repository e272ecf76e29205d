package dev.mcptasks.adapters.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's check of a Standard Webhooks signature, written from the specification independently of the sink's
 * code: decode the {@code whsec_} secret, HMAC-SHA256 over {@code id.timestamp.body}, compare in constant time with
 * each {@code v1,} entry of the header, and refuse a timestamp more than the tolerance away from now.
 */
final class StandardWebhooksVerifier {
    private final byte[] key;
    private final long toleranceSeconds;

    StandardWebhooksVerifier(String whsecSecret, long toleranceSeconds) {
        if (!whsecSecret.startsWith("whsec_")) {
            throw new IllegalArgumentException("the test verifier takes whsec_ secrets");
        }
        this.key = Base64.getDecoder().decode(whsecSecret.substring("whsec_".length()));
        this.toleranceSeconds = toleranceSeconds;
    }

    boolean verify(String id, String timestamp, String signatureHeader, byte[] body, long nowSeconds) {
        if (id == null || timestamp == null || signatureHeader == null) {
            return false;
        }
        long sent;
        try {
            sent = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowSeconds - sent) > toleranceSeconds) {
            return false;
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
            byte[] signed = new byte[prefix.length + body.length];
            System.arraycopy(prefix, 0, signed, 0, prefix.length);
            System.arraycopy(body, 0, signed, prefix.length, body.length);
            expected = mac.doFinal(signed);
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
        for (String entry : signatureHeader.split(" ")) {
            int comma = entry.indexOf(',');
            if (comma < 0 || !entry.substring(0, comma).equals("v1")) {
                continue;
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(entry.substring(comma + 1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (MessageDigest.isEqual(expected, given)) {
                return true;
            }
        }
        return false;
    }
}
