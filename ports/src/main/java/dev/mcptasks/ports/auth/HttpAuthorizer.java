package dev.mcptasks.ports.auth;

import java.util.concurrent.CompletableFuture;

/**
 * Credentials for the HTTP requests to one MCP server (MCP authorization, 2025-11-25). A transport asks
 * {@link #authorization()} before each request and, when the server answers 401 or 403 with a challenge, hands the
 * challenge to {@link #challenged} and sends the request again with the header it completes with.
 *
 * <p>Invariants a transport keeps: it never logs a header value; it sends a request again at most
 * {@link #MAX_CHALLENGES} times per request, so a server that keeps refusing a fresh token ends the request with
 * {@code AUTH_REQUIRED} instead of looping; a 401/403 is treated as "not executed" (the server refused before acting).
 */
public interface HttpAuthorizer {
    /** How many challenges one request may answer before it fails {@code AUTH_REQUIRED}. */
    int MAX_CHALLENGES = 3;

    /** An authorizer that has no credentials: every challenge is refused. */
    HttpAuthorizer NONE = new HttpAuthorizer() {
        @Override
        public String authorization() {
            return null;
        }

        @Override
        public CompletableFuture<AuthAttempt> challenged(AuthChallenge challenge) {
            return CompletableFuture.completedFuture(new AuthAttempt.Refused(
                    "the server asks for authorization (HTTP " + challenge.status()
                            + ") and no auth is configured for it"));
        }
    };

    /**
     * The {@code Authorization} header value for the next request (e.g. {@code "Bearer …"}), or null when there is
     * no credential yet (the request goes out without one, and a challenge starts the flow). Never blocks: a token
     * near expiry is refreshed in the background or on the next challenge.
     */
    String authorization();

    /**
     * The server refused a request with 401, or with 403 {@code insufficient_scope}. Completes with
     * {@link AuthAttempt.Retry} carrying the header to send the request with again, or {@link AuthAttempt.Refused}
     * when no credential can be obtained (the request then fails {@code AUTH_REQUIRED} with that reason). May do
     * network I/O (discovery, token requests): it must not run on the caller's thread, and the transport must not
     * wait for it on an I/O thread. Concurrent challenges for the same server share one token request.
     */
    CompletableFuture<AuthAttempt> challenged(AuthChallenge challenge);
}
