package dev.mcptasks.mcp;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sessions of one worker: one long-lived {@link McpSession} per configured server, created on first use with
 * the first transport factory that supports the server; a url whose transport is not configured has it detected
 * (Streamable HTTP, else the legacy HTTP+SSE transport when a factory of kind {@code sse} is installed). That session speaks the server's pinned generation, or the
 * one it discovers; tasks of the other generation (created before a server moved on, or under another pin) are
 * driven through a second session pinned to their generation, made on demand ({@link #speaking}). A 2025-11-25 task
 * created in a server session this worker does not speak in (another worker's, or this worker's before a restart)
 * is driven in that session again ({@link #resumedFor}), since servers that bind tasks to their session answer for
 * them only there.
 */
public final class McpSessions implements AutoCloseable {
    /** Bound on the sessions kept speaking in other sessions' server sessions; the least recently used is closed. */
    static final int MAX_RESUMED = 32;
    private static final int GONE_REMEMBERED = 1024;

    private final Map<String, McpServerSettings> servers = new LinkedHashMap<>();
    private final List<McpTransportFactory> factories;
    private final Clock clock;
    private final String clientVersion;
    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    /** The second sessions, keyed by server name and generation. */
    private final Map<String, McpSession> pinned = new ConcurrentHashMap<>();
    /** The transport factory of each server, chosen once: every poll of a task asks it whether it can resume. */
    private final Map<String, McpTransportFactory> factoryByServer = new ConcurrentHashMap<>();
    /** Sessions speaking in server sessions other sessions created, keyed by server name and session id. */
    private final Map<String, McpSession> resumed = new LinkedHashMap<>(16, 0.75f, true);
    /** Keys of server sessions found gone: their tasks are asked about in this worker's own session. */
    private final Map<String, Boolean> gone = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > GONE_REMEMBERED;
        }
    };
    private final ExecutorService callbacks;
    private final DetectedTransports detected;
    private final Metrics metrics;
    private final Tracing tracing;
    private volatile boolean closed;

    /** Sessions whose detected transports are remembered for the whole process ({@link DetectedTransports#PROCESS}). */
    public McpSessions(Collection<McpServerSettings> servers, Collection<McpTransportFactory> factories, Clock clock,
            String clientVersion) {
        this(servers, factories, clock, clientVersion, DetectedTransports.PROCESS);
    }

    public McpSessions(Collection<McpServerSettings> servers, Collection<McpTransportFactory> factories, Clock clock,
            String clientVersion, DetectedTransports detected) {
        this(servers, factories, clock, clientVersion, detected, Metrics.NONE);
    }

    /** @param metrics told every upstream request's duration and failure kind */
    public McpSessions(Collection<McpServerSettings> servers, Collection<McpTransportFactory> factories, Clock clock,
            String clientVersion, DetectedTransports detected, Metrics metrics) {
        this(servers, factories, clock, clientVersion, detected, metrics, Tracing.NONE);
    }

    /**
     * @param tracing where each request made within a traced operation (a permit with a trace context) goes, as a
     *     child span of that context
     */
    public McpSessions(Collection<McpServerSettings> servers, Collection<McpTransportFactory> factories, Clock clock,
            String clientVersion, DetectedTransports detected, Metrics metrics, Tracing tracing) {
        this.tracing = java.util.Objects.requireNonNull(tracing, "tracing");
        this.metrics = java.util.Objects.requireNonNull(metrics, "metrics");
        for (McpServerSettings server : servers) {
            if (this.servers.put(server.name(), server) != null) {
                throw new IllegalArgumentException("MCP server '" + server.name() + "' is configured twice");
            }
            if (factories.stream().noneMatch(factory -> factory.supports(server.spec()))) {
                throw new IllegalArgumentException("no MCP transport can reach server '" + server.name() + "' ("
                        + server.spec() + ")");
            }
        }
        this.factories = List.copyOf(factories);
        this.detected = detected;
        this.clock = clock;
        this.clientVersion = clientVersion;
        AtomicInteger threads = new AtomicInteger();
        this.callbacks = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "mcp-callbacks-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The settings of a configured server. */
    public Optional<McpServerSettings> settings(String serverName) {
        return Optional.ofNullable(servers.get(serverName));
    }

    /** The session of a configured server, created (not yet connected) on first use. */
    public Optional<McpSession> session(String serverName) {
        McpServerSettings server = servers.get(serverName);
        if (server == null) {
            return Optional.empty();
        }
        if (closed) {
            throw new IllegalStateException("the MCP sessions are closed");
        }
        return Optional.of(sessions.computeIfAbsent(serverName, name -> new McpSession(server,
                factoryFor(server.spec()), clock, callbacks, clientVersion).meteredBy(metrics).tracedBy(tracing)));
    }

    /**
     * A session of {@code session}'s server that speaks {@code generation}: the server's own session when it speaks
     * it (connecting it first when it has yet to discover its generation), else a second session pinned to it.
     */
    public CompletableFuture<McpSession> speaking(McpSession session, ProtocolGeneration generation) {
        Optional<ProtocolGeneration> known = session.generation();
        if (known.isPresent()) {
            return CompletableFuture.completedFuture(known.get() == generation ? session : pinned(session, generation));
        }
        return session.connect().thenApply(handshake -> handshake.generation() == generation ? session
                : pinned(session, generation));
    }

    private McpSession pinned(McpSession session, ProtocolGeneration generation) {
        if (closed) {
            throw new IllegalStateException("the MCP sessions are closed");
        }
        McpServerSettings server = session.settings();
        return pinned.computeIfAbsent(server.name() + " " + generation.protocolVersion(), key -> new McpSession(
                server.withPinnedGeneration(generation),
                factoryFor(server.spec()), clock, callbacks, clientVersion).meteredBy(metrics).tracedBy(tracing));
    }

    /**
     * The session to drive {@code ref} in when it is not {@code primary}: a 2025-11-25 task created in a server
     * session other than the one {@code primary} speaks in now, on a transport that can speak in it again. Empty
     * when the task has no recorded session, is of the 2026-07-28 generation (no sessions), was created in
     * {@code primary}'s session, or its session was found gone ({@link #gone}).
     */
    public Optional<McpSession> resumedFor(McpSession primary, RemoteTaskRef ref) {
        if (!mayResume(primary, ref)) {
            return Optional.empty();
        }
        String sessionId = ref.endpointSession();
        McpServerSettings server = primary.settings();
        McpTransportFactory factory = factoryFor(server.spec());
        String key = resumedKey(server.name(), sessionId);
        McpSession evicted = null;
        McpSession session;
        synchronized (resumed) {
            if (closed) {
                throw new IllegalStateException("the MCP sessions are closed");
            }
            if (gone.containsKey(key)) {
                return Optional.empty();
            }
            session = resumed.get(key);
            if (session == null) {
                session = McpSession.resuming(server, factory, clock, callbacks, clientVersion, sessionId,
                        handshakeFor(primary, ref)).meteredBy(metrics).tracedBy(tracing);
                resumed.put(key, session);
                if (resumed.size() > MAX_RESUMED) {
                    var eldest = resumed.entrySet().iterator().next();
                    evicted = eldest.getValue();
                    resumed.remove(eldest.getKey());
                }
            }
        }
        if (evicted != null) {
            // its requests in flight fail as transport failures and are tried again later; its server session lives
            evicted.close();
        }
        return Optional.of(session);
    }

    /**
     * Whether {@code ref} may have to be driven in another server session than {@code primary}'s: a 2025-11-25 task
     * with a recorded session other than the one {@code primary} speaks in now, on a transport that can speak in it
     * again. Sends nothing.
     */
    public boolean mayResume(McpSession primary, RemoteTaskRef ref) {
        String sessionId = ref.endpointSession();
        return sessionId != null && ref.generation() == ProtocolGeneration.TASKS_2025_11_25
                && !sessionId.equals(primary.endpointSession().orElse(null))
                && factoryFor(primary.settings().spec()).canResume(primary.settings().spec());
    }

    /**
     * The server forgot the session {@code session} speaks in (HTTP 404, or server-everything's 400): its tasks are
     * from now on asked about in the server's own session of this worker, where the server will say whether it
     * knows them.
     */
    public void gone(McpSession session, String sessionId) {
        String key = resumedKey(session.serverName(), sessionId);
        synchronized (resumed) {
            gone.put(key, Boolean.TRUE);
            resumed.remove(key, session);
        }
        session.close();
    }

    private static String resumedKey(String serverName, String sessionId) {
        return serverName + " " + sessionId;
    }

    /**
     * The handshake a resumed session takes as its own: the primary's when it speaks the task's protocol version
     * (its capabilities are the server's), else the task's protocol version with capabilities unknown.
     */
    private static McpHandshake handshakeFor(McpSession primary, RemoteTaskRef ref) {
        String version = ref.protocolVersion() != null ? ref.protocolVersion() : ProtocolVersions.LATEST;
        return primary.handshake().filter(known -> known.protocolVersion().equals(version))
                .orElseGet(() -> McpHandshake.resumedUnasked(version));
    }

    /**
     * The first factory that supports the server; for a url with no configured transport, wrapped to fall back to
     * the legacy SSE transport when one is installed.
     */
    private McpTransportFactory factoryFor(McpServerSpec spec) {
        return factoryByServer.computeIfAbsent(spec.name(), name -> chooseFactory(spec));
    }

    private McpTransportFactory chooseFactory(McpServerSpec spec) {
        McpTransportFactory first = factories.stream().filter(factory -> factory.supports(spec)).findFirst()
                .orElseThrow();
        if (!spec.transportDetected()) {
            return first;
        }
        McpServerSpec asLegacy = spec.withTransport(McpServerSpec.SSE);
        return factories.stream().filter(factory -> factory != first && factory.supports(asLegacy)).findFirst()
                .<McpTransportFactory>map(legacy -> new DetectingTransportFactory(first, legacy, detected))
                .orElse(first);
    }

    /** Closes every session (their transports end gracefully). */
    @Override
    public void close() {
        closed = true;
        for (McpSession session : sessions.values()) {
            session.close();
        }
        for (McpSession session : pinned.values()) {
            session.close();
        }
        synchronized (resumed) {
            resumed.values().forEach(McpSession::close);
            resumed.clear();
        }
        callbacks.shutdown();
    }
}
