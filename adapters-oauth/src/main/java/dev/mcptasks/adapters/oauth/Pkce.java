package dev.mcptasks.adapters.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** PKCE with S256 (RFC 7636): a 43-character verifier of 32 random bytes, its SHA-256 as the challenge. */
record Pkce(String verifier, String challenge) {
    private static final SecureRandom RANDOM = new SecureRandom();

    static Pkce create() {
        String verifier = random(32);
        return new Pkce(verifier, s256(verifier));
    }

    static String s256(String verifier) {
        try {
            return ClientAssertion.b64(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code bytes} random bytes, base64url without padding (also the {@code state}). */
    static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return ClientAssertion.b64(value);
    }

    @Override
    public String toString() {
        return "Pkce[challenge=" + challenge + "]";
    }
}
