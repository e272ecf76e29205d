package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP Streamable HTTP: one POST per message (answered by 202, a JSON body or an SSE stream, which {@link PostCall}
 * resumes when it ends before its answer), the optional GET stream once the protocol version is known, the session id
 * and protocol version on every request, and DELETE on close. Every request carries the {@code Authorization} header
 * of the moment ({@link HttpAuth}) and, when the server challenges it, goes again with the header the authorizer
 * hands out, at most {@link HttpAuthorizer#MAX_CHALLENGES} times, or fails {@code AUTH_REQUIRED}.
 * {@code onClosed} is called at most once, when the server loses the session; never after a local {@link #close()}.
 * A transport made to speak in an existing session ({@link HttpTransportFactory#resume}) sends no DELETE: the session
 * belongs to the transport that created it, whose tasks may still run in it; {@link #detach()} leaves a session of
 * its own alive the same way.
 */
final class StreamableHttpMcpTransport implements McpTransport {
    private static final Logger log = LoggerFactory.getLogger(StreamableHttpMcpTransport.class);
    private static final long DELETE_WAIT_MS = 2000;

    private final McpServerSpec spec;
    private final HttpTarget endpoint;
    private final SessionHeaders sessions;
    private final HttpAuth auth;
    private final Requests requests;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closeCalled = new AtomicBoolean();
    /** Null while open; else why it ended (CLOSED locally, SESSION_LOST by the server). Set exactly once. */
    private final AtomicReference<McpTransportException> terminated = new AtomicReference<>();
    private final Set<PostCall> inFlight = ConcurrentHashMap.newKeySet();
    /** In-flight requests by JSON-RPC id (the first of any two sharing one), for answers arriving on SSE streams. */
    private final Map<String, PostCall> awaitingAnswers = new ConcurrentHashMap<>();
    private final AtomicReference<ListeningStream> listening = new AtomicReference<>();
    /** False for a transport that speaks in a session another one created: it must not end that session. */
    private final boolean ownsSession;
    private volatile NettyHttpClient client;
    private volatile Inbound inbound;
    private volatile Listener listener;

    StreamableHttpMcpTransport(McpServerSpec spec, HttpAuthorizer authorizer) {
        this(spec, authorizer, new SessionHeaders(spec.headers()), true);
    }

    /** A transport speaking in the server's existing session {@code sessionId}, negotiated at {@code version}. */
    static StreamableHttpMcpTransport resuming(McpServerSpec spec, HttpAuthorizer authorizer, String sessionId,
            String version) {
        return new StreamableHttpMcpTransport(spec, authorizer, new SessionHeaders(spec.headers(), sessionId, version),
                false);
    }

    private StreamableHttpMcpTransport(McpServerSpec spec, HttpAuthorizer authorizer, SessionHeaders sessions,
            boolean ownsSession) {
        this.spec = spec;
        this.ownsSession = ownsSession;
        this.endpoint = HttpTarget.of(spec.name(), spec.url());
        this.sessions = sessions;
        this.auth = new HttpAuth(spec.name(), spec.url(), authorizer);
        this.requests = new Requests(endpoint, sessions, auth);
    }

    @Override
    public void start(Listener listener) {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("HTTP transport for server '" + spec.name() + "' was already started");
        }
        this.listener = listener;
        this.inbound = new Inbound(spec.name(), listener, this::isOpen, new Inbound.Answers() {
            @Override
            public boolean awaiting() {
                return !awaitingAnswers.isEmpty();
            }

            @Override
            public boolean arrived(String id) {
                PostCall call = awaitingAnswers.get(id);
                return call == null || call.answered();
            }
        });
        this.client = new NettyHttpClient(spec.name(), endpoint, spec.connectTimeout(), spec.readTimeout(),
                spec.maxConnections());
        log.debug("HTTP transport for server '{}' at {} with configured headers {}", spec.name(), spec.url(),
                sessions.configuredNames());
    }

    @Override
    public CompletableFuture<Void> send(String message) {
        if (!started.get()) {
            throw new IllegalStateException("HTTP transport for server '" + spec.name() + "' was not started");
        }
        McpTransportException ended = ended();
        if (ended != null) {
            return CompletableFuture.failedFuture(ended);
        }
        PostCall call = new PostCall(this, message);
        inFlight.add(call);
        String id = call.requestId();
        if (id != null) {
            awaitingAnswers.putIfAbsent(id, call);
        }
        call.done().whenComplete((ok, error) -> {
            inFlight.remove(call);
            if (id != null) {
                awaitingAnswers.remove(id, call);
            }
        });
        // a close racing this send: whoever comes second fails the call
        if (!isOpen()) {
            call.abort(ended());
            return call.done();
        }
        call.start();
        return call.done();
    }

    @Override
    public void abandon(CompletableFuture<Void> sent) {
        for (PostCall call : inFlight) {
            if (call.done() == sent) {
                call.abort(new McpTransportException(Kind.CLOSED, "the client gave up on the answer of server '"
                        + spec.name() + "'"));
            }
        }
    }

    @Override
    public void protocolVersionNegotiated(String version) {
        sessions.protocolVersion(version);
        ListeningStream stream = new ListeningStream(this);
        if (isOpen() && listening.compareAndSet(null, stream)) {
            stream.open();
        }
    }

    @Override
    public Optional<String> sessionId() {
        return Optional.ofNullable(sessions.sessionId());
    }

    @Override
    public void close() {
        close(ownsSession);
    }

    @Override
    public void detach() {
        close(false);
    }

    private void close(boolean endSession) {
        if (!closeCalled.compareAndSet(false, true)) {
            return;
        }
        boolean wasOpen = terminated.compareAndSet(null, new McpTransportException(Kind.CLOSED,
                "transport to server '" + spec.name() + "' was closed"));
        if (client == null) {
            return;
        }
        endStreams(ended());
        // a listener closing us from its callback runs on the event loop, which must not wait for the DELETE
        if (endSession && wasOpen && sessions.sessionId() != null && !client.inEventLoop()) {
            deleteSession();
        }
        client.close();
    }

    /** Blocks the closing thread (never the event loop) for at most {@value #DELETE_WAIT_MS} ms, challenges included. */
    private void deleteSession() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DELETE_WAIT_MS);
        String retry = null;
        ResponseHandler handler = null;
        try {
            for (int answered = 0; ; answered++) {
                handler = newHandler(new StreamState());
                FullHttpRequest delete = requests.delete(retry);
                String sent = delete.headers().get(HttpHeaderNames.AUTHORIZATION);
                client.exchangeUnbounded(delete, handler);
                ExchangeOutcome outcome = handler.outcome().get(left(deadline), TimeUnit.NANOSECONDS);
                if (!(outcome instanceof ExchangeOutcome.Challenged challenged)) {
                    log.debug("DELETE of the session with server '{}': {}", spec.name(), outcome);
                    return;
                }
                retry = auth.answer(answered, challenged.status(), challenged.wwwAuthenticate(), sent)
                        .get(left(deadline), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            log.debug("DELETE of the session with server '{}' was refused: {}", spec.name(),
                    auth.failure(e.getCause()).getMessage());
        } catch (InterruptedException | TimeoutException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            handler.abort(new ExchangeOutcome.Failed(ended()));
            log.debug("DELETE of the session with server '{}' did not finish: {}", spec.name(), e.toString());
        }
    }

    private static long left(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    /** Called by calls and the GET stream when the server forgot the session. */
    void sessionLost(McpTransportException cause) {
        if (!terminated.compareAndSet(null, cause)) {
            return;
        }
        log.info("{}", cause.getMessage());
        endStreams(ended());
        try {
            listener.onClosed(cause);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on close", spec.name(), e);
        }
    }

    private void endStreams(McpTransportException cause) {
        ListeningStream stream = listening.getAndSet(null);
        if (stream != null) {
            stream.stop();
        }
        for (PostCall call : List.copyOf(inFlight)) {
            call.abort(cause);
        }
    }

    boolean isOpen() {
        return terminated.get() == null;
    }

    String serverName() {
        return spec.name();
    }

    /** The longest silence the server may keep on a response, across the resumptions of its stream. */
    Duration readTimeout() {
        return spec.readTimeout();
    }

    NettyHttpClient client() {
        return client;
    }

    Requests requests() {
        return requests;
    }

    HttpAuth auth() {
        return auth;
    }

    /** A survivable problem not tied to one send (the GET stream refused for want of authorization). */
    void report(McpTransportException problem) {
        Inbound sink = inbound;
        if (sink != null) {
            sink.onError(problem);
        }
    }

    ResponseHandler newHandler(StreamState stream) {
        return newHandler(stream, null);
    }

    /** A handler for the answer to a request; a 2026-07-28 request's JSON-RPC error bodies reach the listener. */
    ResponseHandler newHandler(StreamState stream, Frame2026 frame) {
        return new ResponseHandler(spec.name(), spec.maxMessageBytes(), sessions, inbound, stream, frame);
    }

    private McpTransportException ended() {
        McpTransportException cause = terminated.get();
        return cause == null ? null : new McpTransportException(cause.kind(), cause.getMessage());
    }
}
