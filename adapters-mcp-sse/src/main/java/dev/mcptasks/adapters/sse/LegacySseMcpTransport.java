package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The legacy HTTP+SSE transport of MCP 2024-11-05: {@code GET <url>} opens the one SSE stream of the session, whose
 * first {@code endpoint} event names the url (same origin only) every message is then POSTed to; the server accepts
 * each POST (202) and sends responses, requests and notifications as {@code message} events on the stream.
 *
 * <p>The stream is the session: when it ends, breaks or stays silent beyond the read timeout, the transport is lost
 * ({@code onClosed}, at most once, never after a local {@link #close()}), and requests in flight get no answer; their
 * POSTs were already accepted, so their {@code send} futures had completed normally, and the session's timeouts take
 * it from there. A stream that never delivered its endpoint (refused, not an event stream, another origin, no
 * {@code endpoint} event within the connect timeout) fails every send, unsent, and reports no loss.
 *
 * <p>The GET and every POST carry the {@code Authorization} header of the moment ({@link HttpAuth}). A challenged
 * GET (401, 403 {@code insufficient_scope}) opens the stream again with the authorizer's answer, each attempt
 * within its own connect timeout (the authorizer's answer included), at most
 * {@link HttpAuthorizer#MAX_CHALLENGES} times; a refusal or the limit fails every send {@code AUTH_REQUIRED}. A
 * challenged POST goes again the same way ({@link PostRequest}).
 */
final class LegacySseMcpTransport implements McpTransport {
    private static final Logger log = LoggerFactory.getLogger(LegacySseMcpTransport.class);
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

    private final McpServerSpec spec;
    private final HttpTarget sse;
    private final HttpAuth auth;
    /** Counts the GETs that try to open the stream: a connect timer ends only the attempt it was started for. */
    private final AtomicInteger streamAttempts = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closeCalled = new AtomicBoolean();
    /** Null while open; else why it ended. Set exactly once. */
    private final AtomicReference<McpTransportException> terminated = new AtomicReference<>();
    /** The request target of the POST endpoint, once the stream named it; fails if it never does. */
    private final CompletableFuture<String> postTarget = new CompletableFuture<>();
    private final Set<PostRequest> inFlight = ConcurrentHashMap.newKeySet();
    private volatile String protocolVersion;
    private volatile LegacyHttpClient client;
    private volatile StreamReader stream;
    private volatile Listener listener;

    LegacySseMcpTransport(McpServerSpec spec, HttpAuthorizer authorizer) {
        this.spec = spec;
        this.sse = HttpTarget.of(spec.name(), spec.url());
        this.auth = new HttpAuth(spec.name(), spec.url(), authorizer);
    }

    @Override
    public void start(Listener listener) {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("SSE transport for server '" + spec.name() + "' was already started");
        }
        this.listener = listener;
        this.client = new LegacyHttpClient(spec.name(), sse, spec.connectTimeout(), spec.readTimeout(),
                spec.maxConnections());
        log.debug("legacy SSE transport for server '{}' at {} with configured headers {}", spec.name(), spec.url(),
                spec.headers().keySet());
        openStream(null, 0);
    }

    /** One attempt to open the stream, with {@code retry} as its header (null: the authorizer's current one). */
    private void openStream(String retry, int challenges) {
        int attempt = streamAttempts.incrementAndGet();
        FullHttpRequest request = streamRequest(retry);
        StreamReader reader = new StreamReader(spec.name(), spec.maxMessageBytes(),
                new StreamEvents(request.headers().get(HttpHeaderNames.AUTHORIZATION), challenges));
        stream = reader;
        // a close that read the previous reader: this one must not open (the close's endAll sees it otherwise)
        if (!isOpen()) {
            request.release();
            return;
        }
        try {
            client.schedule(() -> {
                if (streamAttempts.get() == attempt) {
                    notConnected(new McpTransportException(Kind.CONNECT_FAILED, "server '" + spec.name()
                            + "' named no POST endpoint (no endpoint event on its SSE stream) within the connect"
                            + " timeout of " + spec.connectTimeout().toMillis() + " ms" + (challenges > 0
                                    ? " (after " + challenges + " authorization challenge(s))" : "")));
                }
            }, spec.connectTimeout());
        } catch (RejectedExecutionException e) {
            // closed meanwhile (an authorizer's answer came late): its event loop is gone
            request.release();
            return;
        }
        client.openStream(request, reader);
    }

    @Override
    public CompletableFuture<Void> send(String message) {
        if (!started.get()) {
            throw new IllegalStateException("SSE transport for server '" + spec.name() + "' was not started");
        }
        McpTransportException ended = ended();
        if (ended != null) {
            return CompletableFuture.failedFuture(ended);
        }
        PostRequest post = new PostRequest(spec.name(), auth, client);
        inFlight.add(post);
        post.done().whenComplete((ok, error) -> {
            inFlight.remove(post);
            if (error instanceof McpTransportException failure && failure.kind() == Kind.SESSION_LOST) {
                lost(failure);
            }
        });
        // a close racing this send: whoever comes second fails the request
        if (!isOpen()) {
            post.abort(ended());
            return post.done();
        }
        postTarget.whenComplete((target, notConnected) -> {
            if (notConnected != null) {
                post.abort(unsent(notConnected));
            } else {
                post.start(retry -> postRequest(target, message, retry));
            }
        });
        return post.done();
    }

    /**
     * Lets go of a POST the server has not answered yet (closes its connection). An accepted message has nothing left
     * to let go of: its answer would come on the stream every other request shares, and the 2024-11-05 transport has
     * no per-request stream to close, so cancelling is the session's {@code notifications/cancelled} alone.
     */
    @Override
    public void abandon(CompletableFuture<Void> sent) {
        for (PostRequest post : inFlight) {
            if (post.done() == sent) {
                post.abort(new McpTransportException(Kind.CLOSED, "the client gave up on the POST to server '"
                        + spec.name() + "'"));
            }
        }
    }

    @Override
    public void protocolVersionNegotiated(String version) {
        protocolVersion = version;
    }

    /** Closes the stream (the legacy transport has no DELETE: a closed stream ends the session). */
    @Override
    public void close() {
        if (!closeCalled.compareAndSet(false, true)) {
            return;
        }
        terminated.compareAndSet(null, new McpTransportException(Kind.CLOSED,
                "transport to server '" + spec.name() + "' was closed"));
        if (client == null) {
            return;
        }
        endAll(ended());
        client.close();
    }

    @Override
    public String toString() {
        // configured header values are secrets
        return "LegacySseMcpTransport[server=" + spec.name() + ", url=" + spec.url() + ", header names="
                + spec.headers().keySet() + "]";
    }

    /** The stream ended after it was ready: the session is gone. */
    private void lost(McpTransportException cause) {
        if (!terminated.compareAndSet(null, cause)) {
            return;
        }
        log.info("{}", cause.getMessage());
        endAll(ended());
        try {
            listener.onClosed(cause);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on close", spec.name(), e);
        }
    }

    /** The stream never named its POST endpoint: every send fails unsent, and there is no session to lose. */
    private void notConnected(McpTransportException cause) {
        if (postTarget.isDone() || !terminated.compareAndSet(null, cause)) {
            return;
        }
        log.debug("{}", cause.getMessage());
        postTarget.completeExceptionally(cause);
        endAll(ended());
    }

    private void endAll(McpTransportException cause) {
        postTarget.completeExceptionally(cause);
        StreamReader reader = stream;
        if (reader != null) {
            reader.stop(cause);
        }
        for (PostRequest post : List.copyOf(inFlight)) {
            post.abort(cause);
        }
    }

    private boolean isOpen() {
        return terminated.get() == null;
    }

    private McpTransportException ended() {
        McpTransportException cause = terminated.get();
        return cause == null ? null : new McpTransportException(cause.kind(), cause.getMessage(),
                cause.httpStatus(), null);
    }

    private static McpTransportException unsent(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        return cause instanceof McpTransportException transport ? transport
                : new McpTransportException(Kind.CONNECT_FAILED, cause.toString(), cause);
    }

    private FullHttpRequest streamRequest(String retry) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, sse.pathAndQuery(),
                Unpooled.EMPTY_BUFFER);
        spec.headers().forEach(request.headers()::set);
        auth.apply(request.headers(), retry);
        request.headers().set(HttpHeaderNames.ACCEPT, HttpHeaderValues.TEXT_EVENT_STREAM);
        request.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        common(request);
        return request;
    }

    private FullHttpRequest postRequest(String target, String message, String retry) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
                Unpooled.copiedBuffer(message, StandardCharsets.UTF_8));
        spec.headers().forEach(request.headers()::set);
        auth.apply(request.headers(), retry);
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        String version = protocolVersion;
        if (version != null) {
            request.headers().set(PROTOCOL_VERSION, version);
        }
        request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, request.content().readableBytes());
        common(request);
        return request;
    }

    private void common(FullHttpRequest request) {
        request.headers().set(HttpHeaderNames.HOST, sse.hostHeader());
        request.headers().set(HttpHeaderNames.USER_AGENT, "mcp-tasks");
    }

    /** What one attempt's stream says, on the event loop. */
    private final class StreamEvents implements StreamReader.Events {
        /** The {@code Authorization} header its GET carried, or null. */
        private final String sent;
        /** The challenges answered before this attempt. */
        private final int challenges;

        StreamEvents(String sent, int challenges) {
            this.sent = sent;
            this.challenges = challenges;
        }

        /** Composed on the authorizer's answer: nothing waits for it, and a close or a timeout meanwhile wins. */
        @Override
        public void onChallenged(int status, String wwwAuthenticate) {
            auth.answer(challenges, status, wwwAuthenticate, sent).whenComplete((retry, error) -> {
                if (postTarget.isDone()) {
                    return;
                }
                if (error != null) {
                    notConnected(auth.failure(error));
                } else {
                    openStream(retry, challenges + 1);
                }
            });
        }

        @Override
        public void onEvent(SseEvent event) {
            switch (event.type()) {
                case "endpoint" -> endpoint(event.data());
                case "message" -> deliver(event.data());
                default -> log.debug("server '{}' sent an SSE event of type '{}'; ignored", spec.name(), event.type());
            }
        }

        @Override
        public void onOversized(long bytes) {
            report(new McpMessageTooLargeException("server '" + spec.name() + "' sent an SSE event", bytes, false,
                    spec.maxMessageBytes(), "", ""));
        }

        @Override
        public void onEnded(McpTransportException cause) {
            if (postTarget.isDone() && !postTarget.isCompletedExceptionally()) {
                lost(cause);
            } else {
                notConnected(cause);
            }
        }

        private void endpoint(String named) {
            if (postTarget.isDone()) {
                log.debug("server '{}' named its POST endpoint again; the first one stays", spec.name());
                return;
            }
            try {
                String target = sse.resolve(spec.name(), named);
                log.debug("server '{}' takes messages at {}", spec.name(), target);
                postTarget.complete(target);
            } catch (McpTransportException refused) {
                log.warn("{}", refused.getMessage());
                notConnected(refused);
            }
        }

        private void deliver(String data) {
            String text = data.strip();
            if (text.isEmpty()) {
                return;
            }
            if (text.charAt(0) != '{' && text.charAt(0) != '[') {
                report(new McpTransportException(Kind.MALFORMED, "server '" + spec.name()
                        + "' sent a message that is not JSON: " + (text.length() <= 80 ? text
                                : text.substring(0, 80) + "...")));
                return;
            }
            if (!isOpen()) {
                return;
            }
            try {
                listener.onMessage(text);
            } catch (RuntimeException e) {
                log.warn("listener of server '{}' failed on a message", spec.name(), e);
            }
        }

        private void report(McpTransportException error) {
            log.debug("{}", error.getMessage());
            if (!isOpen()) {
                return;
            }
            try {
                listener.onError(error);
            } catch (RuntimeException e) {
                log.warn("listener of server '{}' failed on an error report", spec.name(), e);
            }
        }
    }
}
