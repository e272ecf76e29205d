package dev.mcptasks.ports.auth;

/** What an {@link HttpAuthorizer} made of a challenge. */
public sealed interface AuthAttempt {

    /** Send the request again with this {@code Authorization} header value. */
    record Retry(String authorization) implements AuthAttempt {
        public Retry {
            if (authorization == null || authorization.isBlank()) {
                throw new IllegalArgumentException("authorization");
            }
        }

        @Override
        public String toString() {
            return "Retry[authorization=(redacted)]";
        }
    }

    /**
     * No credential can be had without a person (login needed, refresh refused, token revoked, retries used up).
     * {@code reason} is one line that names the server and what to do, e.g. "run bin/mcp-tasks auth login NAME".
     */
    record Refused(String reason) implements AuthAttempt {
    }
}
