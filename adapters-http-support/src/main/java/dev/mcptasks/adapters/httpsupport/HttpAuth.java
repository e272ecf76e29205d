package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpTransportException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One HTTP transport's side of MCP authorization for one server, in Netty's terms: {@link ChallengeResponder} does
 * the rest. The authorizer's header replaces a configured {@code Authorization} header; a configured one goes out
 * only while the authorizer has none.
 */
public final class HttpAuth {
    private final ChallengeResponder responder;

    public HttpAuth(String server, URI resource, HttpAuthorizer authorizer) {
        this.responder = new ChallengeResponder(server, resource, authorizer);
    }

    /**
     * Sets the {@code Authorization} header of a request whose configured headers are set: {@code retry} (the
     * header a challenge's answer named) when not null, else the authorizer's current one when it has one. Returns
     * the header the request carries (possibly the configured one), or null.
     */
    public String apply(HttpHeaders request, String retry) {
        String authorization = responder.header(retry);
        if (authorization != null) {
            request.set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        return request.get(HttpHeaderNames.AUTHORIZATION);
    }

    /** The {@code WWW-Authenticate} challenges of a response, joined as one header value, or null. */
    public static String wwwAuthenticate(HttpHeaders response) {
        List<String> all = response.getAll(HttpHeaderNames.WWW_AUTHENTICATE);
        return all.isEmpty() ? null : String.join(", ", all);
    }

    /** Whether an answer is a challenge: any 401, or a 403 whose challenge says {@code insufficient_scope}. */
    public static boolean isChallenge(int status, String wwwAuthenticate) {
        return ChallengeResponder.isChallenge(status, wwwAuthenticate);
    }

    /** See {@link ChallengeResponder#answer}. */
    public CompletableFuture<String> answer(int answered, int status, String wwwAuthenticate,
            String sentAuthorization) {
        return responder.answer(answered, status, wwwAuthenticate, sentAuthorization);
    }

    /**
     * Answers a challenge to a request that already answered {@code answered} of them, the way every transport does:
     * once the authorizer's answer completes (on whichever thread completes it; nobody waits for it here),
     * {@code resend} gets the header to send the refused request again with, or {@code fail} gets the
     * {@code AUTH_REQUIRED} failure (the authorizer refused, failed, or the request is out of answers).
     */
    public void answer(int answered, int status, String wwwAuthenticate, String sentAuthorization,
            Consumer<String> resend, Consumer<McpTransportException> fail) {
        answer(answered, status, wwwAuthenticate, sentAuthorization)
                .whenComplete((retry, error) -> {
                    if (error != null) {
                        fail.accept(responder.failure(error));
                    } else {
                        resend.accept(retry);
                    }
                });
    }

    /** See {@link ChallengeResponder#failure}. */
    public McpTransportException failure(Throwable error) {
        return responder.failure(error);
    }

}
