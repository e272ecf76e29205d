package dev.mcptasks.http;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transport's side of MCP authorization: the {@code Authorization} header of each request, asked of the
 * {@link HttpAuthorizer} as the request is built (never cached, so a token refreshed between two requests goes out
 * on the next), and the answers to the server's challenges. The authorizer's header replaces a configured
 * {@code Authorization} header; a configured one goes out only while the authorizer has none (null).
 *
 * <p>A request answers at most {@link HttpAuthorizer#MAX_CHALLENGES} challenges; each answer is composed on the
 * authorizer's future, so no thread (least of all the event loop) waits for discovery or a token request. Header
 * values are never logged.
 */
final class HttpAuth {
    private static final Logger log = LoggerFactory.getLogger(HttpAuth.class);
    private static final Pattern INSUFFICIENT_SCOPE =
            Pattern.compile("(?i)(^|[\\s,])error\\s*=\\s*\"?insufficient_scope\"?");

    private final String server;
    private final URI resource;
    private final HttpAuthorizer authorizer;

    HttpAuth(String server, URI resource, HttpAuthorizer authorizer) {
        this.server = server;
        this.resource = resource;
        this.authorizer = authorizer == null ? HttpAuthorizer.NONE : authorizer;
    }

    /**
     * Sets the {@code Authorization} header of a request whose configured headers are set: {@code retry} (the
     * header a challenge's answer named) when not null, else the authorizer's current one when it has one. Returns
     * the header the request carries (possibly the configured one), or null.
     */
    String apply(HttpHeaders request, String retry) {
        String authorization = retry != null ? retry : current();
        if (authorization != null) {
            request.set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        return request.get(HttpHeaderNames.AUTHORIZATION);
    }

    private String current() {
        try {
            return authorizer.authorization();
        } catch (RuntimeException e) {
            // the request goes out without a credential: a challenge then gives the authorizer its say
            log.warn("the authorizer of server '{}' failed to give a header: {}", server, e.getClass().getName());
            return null;
        }
    }

    /** The {@code WWW-Authenticate} challenges of a response, joined as one header value, or null. */
    static String wwwAuthenticate(HttpHeaders response) {
        List<String> all = response.getAll(HttpHeaderNames.WWW_AUTHENTICATE);
        return all.isEmpty() ? null : String.join(", ", all);
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
    CompletableFuture<String> answer(int answered, int status, String wwwAuthenticate, String sentAuthorization) {
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
                log.debug("server '{}' challenged a request (HTTP {}); sending it again with a new credential",
                        server, status);
                return retry.authorization();
            }
            if (answer instanceof AuthAttempt.Refused refused) {
                throw authRequired(refusal + ": " + refused.reason());
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            throw authRequired(refusal + " and its authorizer failed: "
                    + (cause == null ? "no answer" : cause.getClass().getSimpleName() + ": " + cause.getMessage()));
        });
    }

    /** The transport failure a failed {@link #answer} future carries. */
    McpTransportException failure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof McpTransportException transport ? transport
                : authRequired("authorization for server '" + server + "' failed: " + cause);
    }

    private static McpTransportException authRequired(String reason) {
        return new McpTransportException(Kind.AUTH_REQUIRED, reason);
    }
}
