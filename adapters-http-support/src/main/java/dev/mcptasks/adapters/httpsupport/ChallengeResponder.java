package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * The transport's side of MCP authorization for one server, the same for every HTTP transport (they differ only in
 * how they set and read headers): the {@code Authorization} header of the moment, asked of the
 * {@link HttpAuthorizer} as each request is built (never cached, so a token refreshed between two requests goes out
 * on the next), and the answers to the server's challenges.
 *
 * <p>A request answers at most {@link HttpAuthorizer#MAX_CHALLENGES} challenges; each answer is composed on the
 * authorizer's future, so no thread (least of all an I/O thread) waits for discovery or a token request. Header
 * values are never logged.
 */
final class ChallengeResponder {
    private static final System.Logger LOG = System.getLogger(ChallengeResponder.class.getName());
    private static final Pattern INSUFFICIENT_SCOPE =
            Pattern.compile("(?i)(^|[\\s,])error\\s*=\\s*\"?insufficient_scope\"?");

    private final String server;
    private final URI resource;
    private final HttpAuthorizer authorizer;

    ChallengeResponder(String server, URI resource, HttpAuthorizer authorizer) {
        this.server = server;
        this.resource = resource;
        this.authorizer = authorizer == null ? HttpAuthorizer.NONE : authorizer;
    }

    /**
     * The header a request goes out with: {@code retry} (what a challenge's answer named) when not null, else the
     * authorizer's current one, else null (the transport then leaves a configured header, if any, in place).
     */
    String header(String retry) {
        if (retry != null) {
            return retry;
        }
        try {
            return authorizer.authorization();
        } catch (RuntimeException e) {
            // the request goes out without a credential: a challenge then gives the authorizer its say
            LOG.log(System.Logger.Level.WARNING, "the authorizer of server ''{0}'' failed to give a header: {1}",
                    server, e.getClass().getName());
            return null;
        }
    }

    /** Whether an answer is a challenge: any 401, or a 403 whose challenge says {@code insufficient_scope}. */
    static boolean isChallenge(int status, String wwwAuthenticate) {
        return status == 401 || (status == 403 && wwwAuthenticate != null
                && INSUFFICIENT_SCOPE.matcher(wwwAuthenticate).find());
    }

    /**
     * Answers a challenge to a request that already answered {@code answered} of them: completes with the header to
     * send it again with, or fails with {@link Kind#AUTH_REQUIRED} (not retryable, not sent) when the authorizer
     * refuses or the request is out of answers.
     */
    CompletableFuture<String> answer(int answered, int status, String wwwAuthenticate,
            String sentAuthorization) {
        String refusal = "server '" + server + "' refused a request (HTTP " + status
                + (status == 403 ? " insufficient_scope" : "") + ")";
        if (answered >= HttpAuthorizer.MAX_CHALLENGES) {
            return CompletableFuture.failedFuture(authRequired(refusal + " again after " + answered
                    + " fresh credentials; giving up"));
        }
        CompletableFuture<AuthAttempt> attempt;
        try {
            attempt = authorizer.challenged(new AuthChallenge(resource, status, wwwAuthenticate, sentAuthorization));
        } catch (RuntimeException e) {
            attempt = CompletableFuture.failedFuture(e);
        }
        if (attempt == null) {
            attempt = CompletableFuture.completedFuture(null);
        }
        return attempt.handle((answer, error) -> {
            if (answer instanceof AuthAttempt.Retry retry) {
                LOG.log(System.Logger.Level.DEBUG, "server ''{0}'' challenged a request (HTTP {1}); sending it again"
                        + " with a new credential", server, status);
                return retry.authorization();
            }
            if (answer instanceof AuthAttempt.Refused refused) {
                throw authRequired(refusal + ": " + refused.reason());
            }
            Throwable cause = unwrap(error);
            throw authRequired(refusal + " and its authorizer failed: "
                    + (cause == null ? "no answer" : cause.getClass().getSimpleName() + ": " + cause.getMessage()));
        });
    }

    /** The transport failure a failed {@link #answer} future carries. */
    McpTransportException failure(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof McpTransportException transport ? transport
                : authRequired("authorization for server '" + server + "' failed: " + cause);
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static McpTransportException authRequired(String reason) {
        return new McpTransportException(Kind.AUTH_REQUIRED, reason);
    }
}
