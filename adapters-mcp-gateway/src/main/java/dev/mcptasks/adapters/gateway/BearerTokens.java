package dev.mcptasks.adapters.gateway;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps an {@code Authorization: Bearer} token to its principal. Every configured token is compared, in constant time
 * on SHA-256 digests, so neither the answer's timing nor a hash-map probe tells a caller how close a guess was.
 */
final class BearerTokens {
    private static final String SCHEME = "bearer ";

    private record Entry(byte[] digest, String principal) {}

    /** The outcome for one request. */
    sealed interface Verdict {
        record Admitted(String principal) implements Verdict {}

        /** No {@code Authorization: Bearer} header at all. */
        record Missing() implements Verdict {}

        /** A bearer token that no configured token matches. */
        record Unknown() implements Verdict {}
    }

    private final List<Entry> entries;
    private final String anonymousPrincipal;

    BearerTokens(Map<String, String> tokens, String anonymousPrincipal) {
        this.entries = tokens.entrySet().stream().map(e -> new Entry(sha256(e.getKey()), e.getValue())).toList();
        this.anonymousPrincipal = anonymousPrincipal;
    }

    boolean required() {
        return !entries.isEmpty();
    }

    /** Judges an {@code Authorization} header value (null when absent). */
    Verdict judge(String authorization) {
        if (entries.isEmpty()) {
            return new Verdict.Admitted(anonymousPrincipal);
        }
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return new Verdict.Missing();
        }
        byte[] presented = sha256(authorization.substring(SCHEME.length()).trim());
        String principal = null;
        for (Entry entry : entries) {
            if (MessageDigest.isEqual(entry.digest(), presented) && principal == null) {
                principal = entry.principal();
            }
        }
        return Optional.ofNullable(principal).<Verdict>map(Verdict.Admitted::new).orElseGet(Verdict.Unknown::new);
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
