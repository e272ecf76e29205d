package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.UnsentRequests;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * One {@code send}: the POST of a message and, when the server challenges it (401, 403 {@code insufficient_scope}),
 * the same POST again with the {@code Authorization} header the authorizer's answer named, composed on that answer
 * (no thread waits for it), at most {@link dev.mcptasks.ports.auth.HttpAuthorizer#MAX_CHALLENGES} times; a refusal
 * or the limit fails it {@code AUTH_REQUIRED}, not sent. {@link #done()} completes once the server accepted it.
 */
final class PostRequest {
    private final HttpAuth auth;
    private final LegacyHttpClient client;
    private final String server;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Guarded by this: the POST on the wire (or last refused), the cause of an abort, the challenges answered. */
    private PostExchange current;
    private McpTransportException aborted;
    private int challenges;
    /** Builds the POST with the header to send (null: the authorizer's current one); set once by {@link #start}. */
    private volatile Function<String, FullHttpRequest> build;

    PostRequest(String server, HttpAuth auth, LegacyHttpClient client) {
        this.server = server;
        this.auth = auth;
        this.client = client;
    }

    CompletableFuture<Void> done() {
        return done;
    }

    /** Sends the message once the POST endpoint is known. */
    void start(Function<String, FullHttpRequest> post) {
        build = post;
        send(null);
    }

    /**
     * Ends the request from outside (local close, lost stream, the caller gave up, no endpoint): a POST on the wire
     * has its connection closed and fails as possibly sent; one never sent, or refused and waiting for its
     * challenge's answer (the server did not act on it), fails with {@code cause} as it is.
     */
    void abort(McpTransportException cause) {
        PostExchange exchange;
        synchronized (this) {
            if (aborted != null || done.isDone()) {
                return;
            }
            aborted = cause;
            exchange = current;
        }
        if (exchange == null || exchange.done().isDone()) {
            done.completeExceptionally(cause);
        } else {
            // its outcome reaches ended(), which fails done with it (or with the abort, for a late challenge)
            exchange.abort(cause);
        }
    }

    private void send(String retry) {
        FullHttpRequest request = build.apply(retry);
        PostExchange exchange = new PostExchange(server);
        synchronized (this) {
            if (UnsentRequests.dropIfEnded(done, aborted, request)) {
                return;
            }
            current = exchange;
        }
        String sent = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        exchange.done().whenComplete((outcome, error) -> ended(outcome, error, sent));
        client.post(request, exchange);
    }

    private void ended(PostExchange.Outcome outcome, Throwable error, String sent) {
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            done.completeExceptionally(cause instanceof McpTransportException ? cause
                    : new McpTransportException(Kind.STREAM_BROKEN, "the POST to server '" + server + "' failed: "
                            + cause, cause));
            return;
        }
        if (!(outcome instanceof PostExchange.Outcome.Challenged challenge)) {
            done.complete(null);
            return;
        }
        int answered;
        synchronized (this) {
            if (aborted != null) {
                done.completeExceptionally(aborted);
                return;
            }
            answered = challenges++;
        }
        auth.answer(answered, challenge.status(), challenge.wwwAuthenticate(), sent, this::send,
                done::completeExceptionally);
    }
}
