package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.metrics.Metrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's Streamable HTTP endpoint ({@code /mcp}) on Netty, serving both MCP generations: 2025-11-25 sessions
 * (POST, a GET notification stream, DELETE; SSE answers resumable with {@code Last-Event-ID}) and stateless
 * 2026-07-28 requests (POST only, SEP-2243 headers checked). Start it with {@link #start}; {@link #close} ends every
 * session and stops listening. Sessions are kept in a {@link FrontSessionStore} when one is given: a gateway
 * restarted on the same store, or another gateway on it, serves a client's session under the same id.
 */
public final class HttpGateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpGateway.class);
    private static final int DISPATCH_THREADS = 4;
    private static final Duration SWEEP_AT_MOST_EVERY = Duration.ofMinutes(1);

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService dispatch;
    private final Channel server;
    private final HttpSessions sessions;
    private final StoredSessions stored;
    private final FrontDispatcher dispatcher;
    private final InetSocketAddress address;
    private final Clock clock;
    private final Duration idleTimeout;
    private final ConnectionLimits limits;
    private Clock.Timer sweep;
    /** The time of the newest sweep whose store part is still to run; null when none is. */
    private final AtomicReference<Instant> storeSweepAt = new AtomicReference<>();
    private boolean closed;

    private HttpGateway(EventLoopGroup boss, EventLoopGroup workers, ExecutorService dispatch, Channel server,
            HttpSessions sessions, StoredSessions stored, FrontDispatcher dispatcher, Clock clock, Duration idleTimeout,
            ConnectionLimits limits) {
        this.stored = stored;
        this.limits = limits;
        this.boss = boss;
        this.workers = workers;
        this.dispatch = dispatch;
        this.server = server;
        this.sessions = sessions;
        this.dispatcher = dispatcher;
        this.address = (InetSocketAddress) server.localAddress();
        this.clock = clock;
        this.idleTimeout = idleTimeout;
    }

    /**
     * Binds and starts serving the front door.
     *
     * @param clock times idle sessions out ({@link GatewaySettings#sessionIdleTimeout()})
     * @throws IllegalStateException with a one-line reason when the settings would expose an unauthenticated
     *     endpoint beyond loopback, or the address cannot be bound
     */
    public static HttpGateway start(GatewaySettings settings, FrontDoor door, Clock clock) {
        return start(settings, door, clock, FrontSessionStore.NONE);
    }

    /**
     * Binds and starts serving the front door, its sessions kept in {@code sessionStore} (the task store's), so that
     * they survive a restart and are served alike by every gateway on the store.
     *
     * @param clock times idle sessions out ({@link GatewaySettings#sessionIdleTimeout()}) and stamps their uses
     * @throws IllegalStateException as {@link #start(GatewaySettings, FrontDoor, Clock)}
     */
    public static HttpGateway start(GatewaySettings settings, FrontDoor door, Clock clock,
            FrontSessionStore sessionStore) {
        return start(settings, Objects.requireNonNull(door, "door").dispatcher(), clock, door.metrics(),
                sessionStore);
    }

    static HttpGateway start(GatewaySettings settings, FrontDispatcher dispatcher, Clock clock) {
        return start(settings, dispatcher, clock, Metrics.NONE, FrontSessionStore.NONE);
    }

    static HttpGateway start(GatewaySettings settings, FrontDispatcher dispatcher, Clock clock,
            FrontSessionStore sessionStore) {
        return start(settings, dispatcher, clock, Metrics.NONE, sessionStore);
    }

    static HttpGateway start(GatewaySettings settings, FrontDispatcher dispatcher, Clock clock, Metrics metrics,
            FrontSessionStore sessionStore) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(dispatcher, "dispatcher");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sessionStore, "sessionStore");
        InetAddress bind = resolve(settings.bindHost());
        if (settings.bearerTokens().isEmpty() && !bind.isLoopbackAddress()) {
            throw new IllegalStateException("refusing to serve the MCP gateway without bearer tokens on the "
                    + "non-loopback address " + settings.bindHost() + ": configure tokens or bind 127.0.0.1");
        }
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        HttpReplies replies = new HttpReplies(mapper);
        HttpSessions sessions = new HttpSessions(settings.streaming().retry().toMillis(), replies::text,
                clock::nanoTime, settings.connections().maxSessionsPerPrincipal(),
                new RetainedAnswers(RetainedAnswers.DEFAULT_BUDGET));
        metrics.gauge("gateway_sessions_open", "Open MCP sessions of the HTTP gateway", sessions::size);
        SseStreams streams = new SseStreams(settings.streaming());
        metrics.gauge("gateway_streams_open", "Open SSE streams of the HTTP gateway (GET streams and streamed answers)",
                streams::open);
        RebindingGuard guard = new RebindingGuard(bind.isLoopbackAddress(), settings.allowedOrigins(),
                settings.allowedHosts());
        BearerTokens tokens = new BearerTokens(settings.bearerTokens(), settings.anonymousPrincipal());
        ExecutorService dispatch = dispatchExecutor();
        StoredSessions stored = new StoredSessions(sessionStore, clock, settings.sessionIdleTimeout());
        McpEndpoint endpoint = new McpEndpoint(dispatcher, sessions, stored, replies, streams, dispatch);
        ConnectionLimits limits = new ConnectionLimits(settings.connections());
        Cors cors = new Cors();
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try {
            Channel server = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(
                                    new HttpServerCodec(),
                                    new InOrderResponses(),
                                    limits,
                                    cors,
                                    new RequestGate(guard, tokens, settings.maxRequestBytes(), replies),
                                    new BodyLimit(settings.maxRequestBytes(), replies),
                                    endpoint);
                        }
                    })
                    .bind(new InetSocketAddress(bind, settings.port())).sync().channel();
            HttpGateway gateway = new HttpGateway(boss, workers, dispatch, server, sessions, stored, dispatcher, clock,
                    settings.sessionIdleTimeout(), limits);
            gateway.scheduleSweep();
            LOG.info("MCP gateway listening on {} ({})", gateway.endpoint(),
                    tokens.required() ? "bearer tokens required" : "no authentication, loopback only");
            return gateway;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdown(boss, workers, dispatch);
            throw new IllegalStateException("interrupted while binding " + settings.bindHost() + ":" + settings.port());
        } catch (Exception e) {
            // Netty's sync() rethrows the bind's checked exception undeclared (a BindException for a port in use):
            // caught as any Exception, so the caller gets one line naming the address
            shutdown(boss, workers, dispatch);
            throw new IllegalStateException("cannot listen on " + settings.bindHost() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Connections open now (tests, metrics). */
    int openConnections() {
        return limits.open();
    }

    /** The bound address (the real port when the settings asked for an ephemeral one). */
    public InetSocketAddress address() {
        return address;
    }

    /** The MCP endpoint URI, {@code http://<host>:<port>/mcp}. */
    public URI endpoint() {
        String host = address.getAddress().getHostAddress();
        String literal = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + literal + ":" + address.getPort() + RequestGate.PATH);
    }

    /**
     * Ends the sessions idle for the timeout, then looks again in half the timeout (at most a minute), so a session
     * lives at most that much longer than the timeout. Runs on the clock's timer: short, it hands the dispatcher's
     * part to the dispatch executor, and asks for the store's part ({@link #storeSweep}).
     */
    private synchronized void scheduleSweep() {
        if (closed || idleTimeout.isZero()) {
            return;
        }
        Duration every = idleTimeout.dividedBy(2);
        every = every.compareTo(SWEEP_AT_MOST_EVERY) > 0 ? SWEEP_AT_MOST_EVERY : every.isZero() ? idleTimeout : every;
        Duration purgeAfter = idleTimeout.plus(every).plus(stored.touchEvery());
        sweep = clock.schedule(every, () -> {
            for (HttpSession session : sessions.endIdle(idleTimeout)) {
                LOG.debug("session {} ended after {} idle", session.id(), idleTimeout);
                try {
                    dispatch.execute(() -> dispatcher.sessionClosed(session));
                } catch (RejectedExecutionException stopping) {
                    // close() tells the dispatcher about the sessions still registered; this one is already gone
                    dispatcher.sessionClosed(session);
                }
            }
            if (stored.durable() && storeSweepAt.getAndSet(clock.now()) == null) {
                try {
                    dispatch.execute(() -> storeSweep(purgeAfter));
                } catch (RejectedExecutionException stopping) {
                    storeSweepAt.set(null); // the next gateway's sweep purges them
                }
            }
            scheduleSweep();
        });
    }

    /**
     * The sweep's part in the store: writes the last use of the sessions a client is connected to (a quiet GET stream
     * sends no request), then purges the sessions no gateway used for the timeout (those ended here, and those ended
     * with a gateway that stopped). The purge waits the timeout plus the sweep's period plus the interval of
     * last-use writes, so a session that any gateway may still serve from memory is never purged under it.
     *
     * <p>Both writes are dated by the sweep that asked for them, and one store sweep runs at a time: sweeps due while
     * one runs (a slow store) fold into one more run at the newest time. Dated at run time instead, a store sweep that
     * was slow between its touch and its purge, or a purge that overtook an earlier sweep's touch on another thread,
     * would purge a session in use.
     */
    private void storeSweep(Duration purgeAfter) {
        Instant at = storeSweepAt.get();
        while (true) {
            for (HttpSession session : sessions.all()) {
                if (session.clientConnected() && stored.touchDue(session)) {
                    stored.touch(session, at);
                }
            }
            stored.purge(at.minus(purgeAfter));
            if (storeSweepAt.compareAndSet(at, null)) {
                return;
            }
            at = storeSweepAt.get();
        }
    }

    /**
     * Stops listening, ends every session (the dispatcher hears of each) and closes all connections; a second call
     * does nothing.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (sweep != null) {
                sweep.cancel();
            }
        }
        try {
            // answered while their connections are still open: a graceful end, not a dropped stream
            dispatcher.stopping();
            flushLoops();
        } catch (RuntimeException e) {
            LOG.warn("the dispatcher failed to end its streams: {}", e.toString());
        }
        server.close().syncUninterruptibly();
        for (HttpSession session : sessions.endAll()) {
            try {
                dispatcher.sessionClosed(session);
            } catch (RuntimeException e) {
                LOG.warn("the dispatcher failed closing session {}: {}", session.id(), e.toString());
            }
        }
        shutdown(boss, workers, dispatch);
    }

    /**
     * Waits (at most a second per round) until the writes queued on the connections' event loops so far have run:
     * an answer queues its write, which queues the stream's last chunk, hence two rounds. A loop that shuts down
     * closes its connections before it runs what is still queued.
     */
    private void flushLoops() {
        for (int round = 0; round < 2; round++) {
            List<io.netty.util.concurrent.Future<?>> barriers = new java.util.ArrayList<>();
            workers.forEach(loop -> barriers.add(loop.submit(() -> { })));
            barriers.forEach(barrier -> barrier.awaitUninterruptibly(1, TimeUnit.SECONDS));
        }
    }

    private static void shutdown(EventLoopGroup boss, EventLoopGroup workers, ExecutorService dispatch) {
        dispatch.shutdownNow();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve the gateway bind address " + host);
        }
    }

    private static ExecutorService dispatchExecutor() {
        AtomicInteger threads = new AtomicInteger();
        return new ThreadPoolExecutor(DISPATCH_THREADS, DISPATCH_THREADS, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "mcp-gateway-dispatch-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }
}
