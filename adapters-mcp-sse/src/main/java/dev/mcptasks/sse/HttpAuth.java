package dev.mcptasks.sse;

import dev.mcptasks.ports.auth.ChallengeResponder;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpTransportException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One transport's side of MCP authorization in Netty's terms: the shared {@link ChallengeResponder} does the rest.
 * The authorizer's header replaces a configured {@code Authorization} header; a configured one goes out only while
 * the authorizer has none.
 */
final class HttpAuth {
    private final ChallengeResponder responder;

    HttpAuth(String server, URI resource, HttpAuthorizer authorizer) {
        this.responder = new ChallengeResponder(server, resource, authorizer);
    }

    /**
     * Sets the {@code Authorization} header of a request whose configured headers are set: {@code retry} (the
     * header a challenge's answer named) when not null, else the authorizer's current one when it has one. Returns
     * the header the request carries (possibly the configured one), or null.
     */
    String apply(HttpHeaders request, String retry) {
        String authorization = responder.header(retry);
        if (authorization != null) {
            request.set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        return request.get(HttpHeaderNames.AUTHORIZATION);
    }

    /** The {@code WWW-Authenticate} challenges of a response, joined as one header value, or null. */
    static String wwwAuthenticate(HttpHeaders response) {
        List<String> all = response.getAll(HttpHeaderNames.WWW_AUTHENTICATE);
        return all.isEmpty() ? null : String.join(", ", all);
    }

    /** See {@link ChallengeResponder#isChallenge}. */
    static boolean isChallenge(int status, String wwwAuthenticate) {
        return ChallengeResponder.isChallenge(status, wwwAuthenticate);
    }

    /** See {@link ChallengeResponder#answer}. */
    CompletableFuture<String> answer(int answered, int status, String wwwAuthenticate, String sentAuthorization) {
        return responder.answer(answered, status, wwwAuthenticate, sentAuthorization);
    }

    /** See {@link ChallengeResponder#failure}. */
    McpTransportException failure(Throwable error) {
        return responder.failure(error);
    }
}
