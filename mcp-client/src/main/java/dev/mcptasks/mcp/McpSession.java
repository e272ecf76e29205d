package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceAttributes;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A long-lived MCP client session with one server: JSON-RPC correlation, the handshake (once, however many callers
 * race for it), per-request timeouts and cancellation, the tool list cache, and transparent re-initialization on a
 * new transport after the old one was lost. Thread-safe.
 *
 * <p>A session speaks one protocol generation. The 2025-11-25 generation starts each connection with
 * {@code initialize}; the 2026-07-28 generation has no handshake and frames every request with the {@link Envelope}.
 * Unless the settings pin a generation, the first connection probes with {@code server/discover}
 * ({@link GenerationProbe}) and falls back to {@code initialize} on the same connection; the generation found is kept
 * for the session's lifetime, so later connections skip the probe and the session never changes generation.
 *
 * <p>A session may instead speak in a server session another one created ({@link #resuming}): a 2025-11-25 server
 * that binds tasks to the {@code Mcp-Session-Id} that created them answers for them only there. Such a session sends
 * no handshake (the session was initialized by its creator) and leaves the server's session alive when it closes.
 * A session in which tasks were created ({@link #tasksCreated()}) leaves it alive too, for the same reason.
 */
public final class McpSession implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpSession.class);
    /** Bound on the wait for the probe's answer: silence means a server of the 2025-11-25 generation. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final McpServerSettings settings;
    private final McpTransportFactory factory;
    private final Clock clock;
    private final UpstreamNoise noise;
    private final Executor callbacks;
    private final JsonNode clientInfo;
    private final Envelope envelope;
    private final ToolCatalog tools;
    private final List<Consumer<JsonNode>> taskStatusListeners = new CopyOnWriteArrayList<>();
    /** Told of the notifications this session does not handle itself (log messages, resource updates, ...). */
    private final List<BiConsumer<String, JsonNode>> otherNotificationListeners = new CopyOnWriteArrayList<>();
    /** The requests waiting for progress, by the progress token they were sent with. */
    private final Map<String, Consumer<JsonNode>> progressListeners = new ConcurrentHashMap<>();
    private final McpConnection.Events events = new ConnectionEvents();
    /** Told every request's duration and failure kind; set once by {@link McpSessions} before the first request. */
    private volatile Metrics metrics = Metrics.NONE;
    /** Where the spans of traced requests go; set once by {@link McpSessions} before the first request. */
    private volatile Tracing tracing = Tracing.NONE;
    private McpConnection current;
    private boolean closed;
    private volatile McpHandshake handshake;
    /** The pinned generation, or the one the first successful handshake found; null until known. Set once. */
    private volatile ProtocolGeneration generation;
    /** The probe said 2025-11-25 but ended its connection doing so: the next connection initializes without probing. */
    private volatile boolean initializeWithoutProbe;
    /** The handshake a session speaking in another's server session takes as its own; null for an ordinary one. */
    private final McpHandshake resumed;
    /** Tasks were created in this session: closing it must not end the server's session they are bound to. */
    private volatile boolean holdsTasks;

    /**
     * @param callbacks runs the continuations of every future this session returns, so callers' code never runs
     *     on (and never blocks) a transport thread
     */
    public McpSession(McpServerSettings settings, McpTransportFactory factory, Clock clock, Executor callbacks,
            String clientVersion) {
        this(settings, factory, clock, callbacks, clientVersion, null);
    }

    private McpSession(McpServerSettings settings, McpTransportFactory factory, Clock clock, Executor callbacks,
            String clientVersion, McpHandshake resumed) {
        this.resumed = resumed;
        this.settings = settings;
        this.factory = factory;
        this.clock = clock;
        this.callbacks = callbacks;
        this.clientInfo = Json.object().put("name", "mcp-tasks").put("version", clientVersion);
        this.envelope = new Envelope(clientInfo);
        this.generation = settings.pinnedGeneration();
        this.tools = new ToolCatalog(settings.name(), params -> request("tools/list", params));
        // one budget per server across reconnects: a flood does not restart its allowance with each connection
        this.noise = new UpstreamNoise(LoggerFactory.getLogger(McpConnection.class), clock, settings.name());
    }

    /**
     * A 2025-11-25 session that speaks in the server's existing session {@code sessionId}, negotiated at
     * {@code protocolVersion} by whoever created it: every connection is made by {@link McpTransportFactory#resume}
     * and is ready at once, taking {@code handshake} (the creator's, as far as known) as its own.
     */
    static McpSession resuming(McpServerSettings settings, McpTransportFactory factory, Clock clock,
            Executor callbacks, String clientVersion, String sessionId, McpHandshake handshake) {
        McpTransportFactory resumingFactory = new McpTransportFactory() {
            @Override
            public String kind() {
                return factory.kind();
            }

            @Override
            public boolean supports(McpServerSpec spec) {
                return factory.canResume(spec);
            }

            @Override
            public McpTransport create(McpServerSpec spec) {
                return factory.resume(spec, sessionId, handshake.protocolVersion());
            }
        };
        return new McpSession(settings.withPinnedGeneration(ProtocolGeneration.TASKS_2025_11_25), resumingFactory,
                clock, callbacks, clientVersion, handshake);
    }

    public McpServerSettings settings() {
        return settings;
    }

    /** This session, tracing the requests made within a traced operation to {@code tracing}. */
    McpSession tracedBy(Tracing tracing) {
        this.tracing = java.util.Objects.requireNonNull(tracing, "tracing");
        return this;
    }

    /** This session, telling {@code metrics} about its requests. */
    McpSession meteredBy(Metrics metrics) {
        this.metrics = java.util.Objects.requireNonNull(metrics, "metrics");
        return this;
    }

    /**
     * The server's id of the session the live connection speaks in ({@code Mcp-Session-Id}), if connected and the
     * transport has sessions. A credential for that session: never log it.
     */
    public Optional<String> endpointSession() {
        McpConnection connection;
        synchronized (this) {
            connection = current;
        }
        return connection == null || connection.isLost() ? Optional.empty() : connection.transport().sessionId();
    }

    /** Records that tasks were created in this session: closing it leaves the server's session alive. */
    void tasksCreated() {
        holdsTasks = true;
    }

    public String serverName() {
        return settings.name();
    }

    /** Connects and initializes if needed; completes with the handshake of the current connection. */
    public CompletableFuture<McpHandshake> connect() {
        try {
            // a relay, so that a caller's cancel never cancels the handshake other callers wait for
            return relay(connection().ready);
        } catch (McpException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The handshake of the last successful initialization, if any. */
    public Optional<McpHandshake> handshake() {
        return Optional.ofNullable(handshake);
    }

    /** The generation this session speaks: pinned, or found by its first handshake; empty until then. */
    public Optional<ProtocolGeneration> generation() {
        return Optional.ofNullable(generation);
    }

    /**
     * Sends a request (initializing first when needed) and completes with its {@code result}. Fails with an
     * {@link McpException}; cancelling the returned future sends {@code notifications/cancelled} and abandons the
     * request in the transport. A cancelled or timed-out request completes only once the transport let go of it
     * (HTTP: its POST's connection is closed), so whoever holds a slot for it holds it until then.
     */
    public CompletableFuture<JsonNode> request(String method, JsonNode params) {
        return request(method, params, settings.requestTimeout());
    }

    /**
     * {@link #request(String, JsonNode)} bounded by {@code timeout} instead of the server's request timeout: for a
     * direct {@code tools/call}, which is answered only when the tool has finished.
     */
    public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
        return request(method, params, timeout, sessionId -> { });
    }

    /**
     * {@link #request(String, JsonNode)} that tells {@code sentIn} the server's session id of the connection the
     * request is written to (null when the transport has none), before it is written: the session a created task is
     * bound to.
     */
    CompletableFuture<JsonNode> request(String method, JsonNode params, Consumer<String> sentIn) {
        return request(method, params, settings.requestTimeout(), sentIn);
    }

    private CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout,
            Consumer<String> sentIn) {
        // a request made within a traced operation is its child span, and carries that span's context upstream
        TraceContext parent = TraceScope.current();
        TraceSpan span = parent == null ? null : tracing.start(method, SpanRole.CLIENT, parent)
                .attribute(TraceAttributes.MCP_METHOD, method).attribute(TraceAttributes.SERVER, settings.name());
        JsonNode sent = span == null ? params : TraceMeta.with(params, span.context());
        CompletableFuture<JsonNode> wire = new CompletableFuture<>();
        CompletableFuture<Void> letGo = new CompletableFuture<>();
        SettlingFuture<JsonNode> result = new SettlingFuture<>(() -> wire.cancel(true));
        long startNanos = clock.nanoTime();
        wire.whenComplete((value, error) -> {
            Throwable cause = error == null ? null : unwrap(error);
            boolean abandoned = wire.isCancelled() || cause instanceof McpTimeoutException;
            meter(method, startNanos, wire.isCancelled() ? null : cause);
            if (span != null) {
                if (wire.isCancelled()) {
                    span.error("cancelled");
                } else if (cause != null) {
                    span.error(cause);
                }
                span.end();
            }
            // an answer (or a transport failure) ends the request at once; an abandoned one waits for the transport
            CompletableFuture<Void> after = abandoned ? letGo : CompletableFuture.completedFuture(null);
            after.whenCompleteAsync((ignored, never) -> {
                if (wire.isCancelled()) {
                    result.settleCancelled();
                } else if (cause != null) {
                    result.completeExceptionally(cause);
                } else {
                    result.complete(value);
                }
            }, callbacks);
        });
        dispatch(method, sent, timeout, wire, letGo, true, sentIn);
        return result;
    }

    private void meter(String method, long startNanos, Throwable failure) {
        Metrics sink = metrics;
        sink.upstreamRequest(settings.name(), method, Duration.ofNanos(clock.nanoTime() - startNanos));
        if (failure != null) {
            sink.upstreamError(settings.name(), errorKind(failure));
        }
    }

    /** A fixed set of kinds: the label never carries the upstream's own text. */
    private static String errorKind(Throwable failure) {
        return failure instanceof McpTimeoutException ? "timeout"
                : failure instanceof McpErrorResponse ? "error_response"
                : failure instanceof McpProtocolException ? "protocol"
                : failure instanceof McpTransportFailure ? "transport" : "other";
    }

    /**
     * {@link #request(String, JsonNode, Duration)} with a fresh {@code _meta.progressToken} in {@code params}: every
     * {@code notifications/progress} for that token goes to {@code onProgress} (its params) until the request
     * completes. {@code onProgress} runs on a transport thread: it must return at once.
     */
    public CompletableFuture<JsonNode> requestWithProgress(String method, ObjectNode params, Duration timeout,
            Consumer<JsonNode> onProgress) {
        String token = RequestIds.nextProgressToken();
        ObjectNode sent = params.deepCopy();
        JsonNode meta = sent.get("_meta");
        ObjectNode withToken = meta != null && meta.isObject() ? (ObjectNode) meta : Json.object();
        withToken.put("progressToken", token);
        sent.set("_meta", withToken);
        // registered before sending: a server may report progress before the request's send completes
        progressListeners.put(token, onProgress);
        CompletableFuture<JsonNode> wire = request(method, sent, timeout);
        // the answer is handed on only once the route is gone, so no progress is reported after it; cancelling the
        // handed-on future cancels the request itself (notifications/cancelled), as with request()
        CompletableFuture<JsonNode> answered = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                wire.cancel(mayInterruptIfRunning);
                return super.cancel(mayInterruptIfRunning);
            }
        };
        wire.whenComplete((value, error) -> {
            progressListeners.remove(token, onProgress);
            if (error != null) {
                answered.completeExceptionally(error);
            } else {
                answered.complete(value);
            }
        });
        return answered;
    }

    /** A future completed from {@code source} on the callback executor. */
    private <T> CompletableFuture<T> relay(CompletableFuture<T> source) {
        CompletableFuture<T> relayed = new CompletableFuture<>();
        source.whenCompleteAsync((value, error) -> {
            if (error != null) {
                relayed.completeExceptionally(unwrap(error));
            } else {
                relayed.complete(value);
            }
        }, callbacks);
        return relayed;
    }

    private void dispatch(String method, JsonNode params, Duration timeout, CompletableFuture<JsonNode> result,
            CompletableFuture<Void> letGo, boolean firstTry, Consumer<String> sentIn) {
        McpConnection connection;
        try {
            connection = connection();
        } catch (McpException e) {
            letGo.complete(null);
            result.completeExceptionally(e);
            return;
        }
        connection.ready.whenComplete((ready, error) -> {
            if (result.isDone()) {
                letGo.complete(null);
                return;
            }
            if (error == null && connection.isLost() && firstTry) {
                // the connection was lost after its handshake but before this request was written: nothing was
                // sent, so one more try on a fresh connection is safe
                dispatch(method, params, timeout, result, letGo, false, sentIn);
            } else if (error != null) {
                letGo.complete(null);
                result.completeExceptionally(notSent(method, error));
            } else {
                JsonNode framed = ready.generation() == ProtocolGeneration.TASKS_EXTENSION_2026_07_28
                        ? envelope.wrap(params) : params;
                sentIn.accept(connection.transport().sessionId().orElse(null));
                connection.call(method, framed, timeout, result, true)
                        .whenComplete((ignored, never) -> letGo.complete(null));
            }
        });
    }

    /** All tools of the server (every {@code tools/list} page), cached until the server reports a change. */
    public CompletableFuture<Map<String, McpTool>> tools() {
        return tools.tools();
    }

    /** The named tool; a miss refreshes the cached list once, since servers may register tools late. */
    public CompletableFuture<Optional<McpTool>> findTool(String name) {
        return tools.tools().thenCompose(known -> {
            if (known.containsKey(name)) {
                return CompletableFuture.completedFuture(Optional.of(known.get(name)));
            }
            tools.invalidate();
            return tools.tools().thenApply(fresh -> Optional.ofNullable(fresh.get(name)));
        });
    }

    /**
     * Listens to {@code notifications/tasks/status} params. They are hints only: they may name tasks this client
     * has not recorded yet, and may never arrive at all.
     */
    public void addTaskStatusListener(Consumer<JsonNode> listener) {
        taskStatusListeners.add(listener);
    }

    /**
     * Listens to the server's notifications this session does not handle itself ({@code notifications/message},
     * {@code notifications/resources/updated}, ...): the method and its params. Runs on a transport thread: it must
     * return at once.
     */
    public void addNotificationListener(BiConsumer<String, JsonNode> listener) {
        otherNotificationListeners.add(listener);
    }

    /** Ends the session and its transport; later requests fail with a transport failure. */
    @Override
    public void close() {
        McpConnection connection;
        synchronized (this) {
            closed = true;
            connection = current;
            current = null;
        }
        if (connection != null) {
            connection.markLost(new McpTransportException(McpTransportException.Kind.CLOSED, "the session was closed"));
            // also closed synchronously here, so a closed session leaves no child process behind
            try {
                release(connection.transport());
            } catch (RuntimeException e) {
                log.debug("server '{}': closing the transport failed: {}", serverName(), e.toString());
            }
        }
    }

    /** The live connection, created and started on demand; its handshake is started outside the lock. */
    private McpConnection connection() {
        McpConnection connection;
        synchronized (this) {
            if (closed) {
                throw new McpTransportFailure(serverName(), "connect",
                        new McpTransportException(McpTransportException.Kind.CLOSED, "the session is closed"), false);
            }
            if (current != null && !current.isLost()) {
                return current;
            }
            McpTransport transport;
            try {
                transport = factory.create(settings.spec());
            } catch (RuntimeException e) {
                throw new McpTransportFailure(serverName(), "connect", McpConnection.asTransportException(e), false);
            }
            connection = new McpConnection(serverName(), transport, clock, events, noise);
            try {
                transport.start(connection);
            } catch (RuntimeException e) {
                closeQuietly(transport);
                throw new McpTransportFailure(serverName(), "connect", McpConnection.asTransportException(e), false);
            }
            current = connection;
        }
        handshake(connection);
        return connection;
    }

    private void handshake(McpConnection connection) {
        ProtocolGeneration known = generation;
        if (resumed != null) {
            // the server's session was initialized by its creator: it takes requests at once
            handshake = resumed;
            log.debug("server '{}': speaking in an existing session, protocol {}", serverName(),
                    resumed.protocolVersion());
            connection.ready.complete(resumed);
        } else if (known == ProtocolGeneration.TASKS_2025_11_25 || (known == null && initializeWithoutProbe)) {
            initialize(connection);
        } else if (known == ProtocolGeneration.TASKS_EXTENSION_2026_07_28) {
            McpHandshake discovered = handshake;
            ready(connection, discovered != null ? discovered : McpHandshake.unasked2026());
        } else {
            probe(connection, ProtocolGeneration.VERSION_2026, true);
        }
    }

    /** {@code server/discover} first: its answer decides the generation (see {@link GenerationProbe}). */
    private void probe(McpConnection connection, String version, boolean mayRetry) {
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        Duration timeout = settings.requestTimeout().compareTo(PROBE_TIMEOUT) < 0 ? settings.requestTimeout()
                : PROBE_TIMEOUT;
        // not cancellable: before a handshake a 2025-11-25 server must get nothing but initialize after it
        connection.call(GenerationProbe.METHOD, envelope.wrap(null, version), timeout, answer, false);
        answer.whenComplete((result, error) -> {
            GenerationProbe.Verdict verdict = GenerationProbe.classify(serverName(), version, mayRetry, result,
                    error);
            if (verdict instanceof GenerationProbe.Verdict.Speaks2026 speaks2026) {
                ready(connection, speaks2026.handshake());
            } else if (verdict instanceof GenerationProbe.Verdict.Retry retry) {
                probe(connection, retry.version(), false);
            } else if (verdict instanceof GenerationProbe.Verdict.Speaks2025 speaks2025) {
                log.info("server '{}': {}; speaking the 2025-11-25 generation", serverName(), speaks2025.why());
                if (connection.isLost()) {
                    // the probe's answer ended the connection: the next request starts over with initialize
                    initializeWithoutProbe = true;
                    abandon(connection, new McpTransportFailure(serverName(), GenerationProbe.METHOD,
                            new McpTransportException(McpTransportException.Kind.CLOSED, "the server/discover probe"
                                    + " ended the connection (" + speaks2025.why() + ")"), false));
                } else {
                    initialize(connection);
                }
            } else {
                abandon(connection, ((GenerationProbe.Verdict.Failed) verdict).cause());
            }
        });
    }

    /** A 2026-07-28 connection is ready at once: every request carries its own envelope. */
    private void ready(McpConnection connection, McpHandshake negotiated) {
        // on HTTP a request is cancelled by closing its stream; notifications/cancelled is for stdio only
        connection.cancelNotifications(settings.spec().isStdio());
        generation = ProtocolGeneration.TASKS_EXTENSION_2026_07_28;
        handshake = negotiated;
        log.info("server '{}': speaking protocol {} (tasks extension {}), server {}", serverName(),
                negotiated.protocolVersion(), negotiated.capabilitiesKnown()
                        ? (negotiated.capabilities().tasksExtension() ? "offered" : "not offered") : "not asked",
                negotiated.serverInfo());
        connection.ready.complete(negotiated);
    }

    private void initialize(McpConnection connection) {
        ObjectNode params = Json.object().put("protocolVersion", ProtocolVersions.LATEST);
        params.set("capabilities", Json.object());
        params.set("clientInfo", clientInfo);
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        // initialize must never be cancelled (lifecycle rules), so it is sent as a non-cancellable request
        connection.call("initialize", params, settings.requestTimeout(), answer, false);
        answer.whenComplete((result, error) -> {
            if (error != null) {
                abandon(connection, error);
                return;
            }
            McpHandshake negotiated;
            try {
                negotiated = McpHandshake.parse(serverName(), result);
            } catch (McpProtocolException e) {
                abandon(connection, e);
                return;
            }
            connection.transport().protocolVersionNegotiated(negotiated.protocolVersion());
            connection.notify("notifications/initialized", null).whenComplete((ignored, sendError) -> {
                if (sendError != null) {
                    abandon(connection, new McpTransportFailure(serverName(), "notifications/initialized",
                            McpConnection.asTransportException(sendError), true));
                    return;
                }
                generation = ProtocolGeneration.TASKS_2025_11_25;
                handshake = negotiated;
                log.info("server '{}': initialized, protocol {}, server {}", serverName(),
                        negotiated.protocolVersion(), negotiated.serverInfo());
                connection.ready.complete(negotiated);
            });
        });
    }

    /**
     * A failed handshake: the caller sees the cause, the transport is dropped, the next request starts over. It counts
     * as one upstream error of its kind: a server that cannot be reached (or refuses the handshake) fails before any
     * request of a caller is written, and would otherwise show in no error count.
     */
    private void abandon(McpConnection connection, Throwable error) {
        Throwable cause = unwrap(error);
        metrics.upstreamError(settings.name(), errorKind(cause));
        log.warn("server '{}': initialization failed: {}", serverName(), cause.getMessage());
        connection.ready.completeExceptionally(cause);
        connection.markLost(new McpTransportException(McpTransportException.Kind.CLOSED,
                "initialization failed: " + cause.getMessage(), cause));
    }

    /** A request that waited for a handshake that failed was never written. */
    private McpException notSent(String method, Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof McpTransportFailure failure) {
            return new McpTransportFailure(serverName(), method, failure.transportCause(), false);
        }
        if (cause instanceof McpException mcp) {
            return mcp;
        }
        return new McpTransportFailure(serverName(), method, McpConnection.asTransportException(cause), false);
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * Ends a transport; a server session with tasks in it (created here, or the one this session speaks in for
     * another) stays alive for whoever drives them.
     */
    private void release(McpTransport transport) {
        if (holdsTasks || resumed != null) {
            transport.detach();
        } else {
            transport.close();
        }
    }

    private void closeQuietly(McpTransport transport) {
        // closing may wait for a child process: never on a transport thread or under the session lock
        CompletableFuture.runAsync(() -> {
            try {
                release(transport);
            } catch (RuntimeException e) {
                log.debug("server '{}': closing a transport failed: {}", serverName(), e.toString());
            }
        });
    }

    /** Routes connection events into the session. */
    private final class ConnectionEvents implements McpConnection.Events {
        @Override
        public void onNotification(McpConnection connection, String method, JsonNode params) {
            switch (method) {
                case "notifications/tools/list_changed" -> tools.invalidate();
                case "notifications/tasks/status" -> taskStatusListeners.forEach(listener -> {
                    try {
                        listener.accept(params);
                    } catch (RuntimeException e) {
                        log.warn("server '{}': a task status listener failed: {}", serverName(), e.toString());
                    }
                });
                case "notifications/progress" -> progress(params);
                default -> other(method, params);
            }
        }

        private void other(String method, JsonNode params) {
            if (otherNotificationListeners.isEmpty()) {
                log.debug("server '{}': notification {} ignored", serverName(), method);
            }
            otherNotificationListeners.forEach(listener -> {
                try {
                    listener.accept(method, params);
                } catch (RuntimeException e) {
                    log.warn("server '{}': a notification listener failed: {}", serverName(), e.toString());
                }
            });
        }

        /** Progress for a request of ours; a token nobody waits for (a late or foreign one) is ignored. */
        private void progress(JsonNode params) {
            JsonNode token = params.get("progressToken");
            Consumer<JsonNode> listener = token == null || !token.isValueNode() ? null
                    : progressListeners.get(token.asText());
            if (listener == null) {
                log.debug("server '{}': progress for unknown token {} ignored", serverName(), token);
                return;
            }
            try {
                listener.accept(params);
            } catch (RuntimeException e) {
                log.warn("server '{}': a progress listener failed: {}", serverName(), e.toString());
            }
        }

        @Override
        public void onLost(McpConnection connection, McpTransportException cause) {
            synchronized (McpSession.this) {
                if (current == connection) {
                    current = null;
                }
            }
            tools.invalidate();
            closeQuietly(connection.transport());
            log.info("server '{}': connection lost ({}): {}; the next request re-initializes", serverName(),
                    cause.kind(), cause.getMessage());
        }
    }
}
