package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.NettyConnections;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.ports.transport.McpTransportException;
import io.netty.channel.Channel;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Netty side of one HTTP transport: one event-loop thread and a pool of keep-alive connections to the endpoint.
 * Each exchange borrows a connection, adds a read-idle timer and its {@link ResponseHandler}, and returns it when the
 * response is done. Request exchanges are bounded: at most {@code maxConnections} hold a connection at once (the
 * listening GET stream and the closing DELETE aside), later ones wait in order, and one aborted while waiting never
 * connects. Over TLS a request is written only after the handshake succeeded, so a handshake failure is a connect
 * failure (nothing sent).
 */
final class NettyHttpClient implements AutoCloseable {
    private static final String RESPONSE = "response";

    private final String server;
    private final Duration readTimeout;
    private final int maxConnections;
    private final NettyConnections connections;
    private final SimpleChannelPool pool;
    private final Object permits = new Object();
    /** Guarded by {@link #permits}: request exchanges holding (or getting) a connection, and those waiting. */
    private int inUse;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private volatile boolean closed;

    private record Waiting(HttpRequest request, ResponseHandler handler, Duration readTimeout) {}

    NettyHttpClient(String server, HttpTarget endpoint, Duration connectTimeout, Duration readTimeout,
            int maxConnections) {
        this.server = server;
        this.readTimeout = readTimeout;
        this.maxConnections = maxConnections;
        this.connections = new NettyConnections(server, endpoint, connectTimeout);
        this.pool = new SimpleChannelPool(connections.bootstrap(), new PooledChannelInitializer(connections));
    }

    /**
     * Sends a request exchange once one of the bounded connections is free; {@code handler.outcome()} tells how it
     * ended. One whose outcome completes while it waits (aborted, timed out) is dropped unsent.
     */
    void exchange(HttpRequest request, ResponseHandler handler) {
        exchange(request, handler, readTimeout);
    }

    /** As {@link #exchange(HttpRequest, ResponseHandler)}, with its own bound on silence instead of the read timeout. */
    void exchange(HttpRequest request, ResponseHandler handler, Duration silence) {
        Waiting entry = new Waiting(request, handler, silence);
        synchronized (permits) {
            if (inUse >= maxConnections && !closed) {
                waiting.add(entry);
                handler.outcome().whenComplete((outcome, error) -> dropWaiting(entry));
                return;
            }
            inUse++;
        }
        start(request, handler, this::permitReturned, silence);
    }

    /** Sends an exchange outside the bound (the listening GET stream, the DELETE at close). */
    void exchangeUnbounded(HttpRequest request, ResponseHandler handler) {
        start(request, handler, () -> { }, readTimeout);
    }

    /** How many request exchanges hold or get a connection now, for tests. */
    int inUse() {
        synchronized (permits) {
            return inUse;
        }
    }

    private void dropWaiting(Waiting entry) {
        boolean removed;
        synchronized (permits) {
            removed = waiting.remove(entry);
        }
        if (removed) {
            ReferenceCountUtil.release(entry.request());
        }
    }

    /** An exchange let go of its connection (closed it or put it back idle): the next waiting one may start. */
    private void permitReturned() {
        Waiting next;
        synchronized (permits) {
            next = waiting.poll();
            while (next != null && next.handler().outcome().isDone()) {
                ReferenceCountUtil.release(next.request());
                next = waiting.poll();
            }
            if (next == null) {
                inUse--;
            }
        }
        if (next != null) {
            start(next.request(), next.handler(), this::permitReturned, next.readTimeout());
        }
    }

    private void start(HttpRequest request, ResponseHandler handler, Runnable permit, Duration silence) {
        AtomicBoolean returned = new AtomicBoolean();
        Runnable returnPermit = () -> {
            if (returned.compareAndSet(false, true)) {
                permit.run();
            }
        };
        handler.channelReturn((channel, reusable) -> {
            giveBack(channel, reusable);
            returnPermit.run();
        });
        io.netty.util.concurrent.Future<Channel> acquiring;
        try {
            acquiring = pool.acquire();
        } catch (RuntimeException e) {
            // the event loop is shutting down under a send that raced close()
            ReferenceCountUtil.release(request);
            handler.outcome().complete(new ExchangeOutcome.Failed(NettyConnections.connectFailure(server, e)));
            returnPermit.run();
            return;
        }
        acquiring.addListener(acquired -> {
            if (!acquired.isSuccess()) {
                ReferenceCountUtil.release(request);
                handler.outcome().complete(new ExchangeOutcome.Failed(NettyConnections.connectFailure(server, acquired.cause())));
                returnPermit.run();
                return;
            }
            Channel channel = (Channel) acquired.getNow();
            SslHandler tls = channel.pipeline().get(SslHandler.class);
            if (tls == null || tls.handshakeFuture().isDone()) {
                send(channel, request, handler, returnPermit, silence);
            } else {
                tls.handshakeFuture().addListener(handshake -> send(channel, request, handler, returnPermit, silence));
            }
        });
    }

    private void send(Channel channel, HttpRequest request, ResponseHandler handler, Runnable returnPermit,
            Duration silence) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls != null && !tls.handshakeFuture().isSuccess()) {
            ReferenceCountUtil.release(request);
            channel.close();
            pool.release(channel);
            handler.outcome().complete(new ExchangeOutcome.Failed(NettyConnections.connectFailure(server,
                    tls.handshakeFuture().cause())));
            returnPermit.run();
            return;
        }
        if (handler.outcome().isDone()) {
            // aborted while the connection was being made
            ReferenceCountUtil.release(request);
            pool.release(channel);
            returnPermit.run();
            return;
        }
        channel.pipeline().addBefore(PooledChannelInitializer.IDLE_TAIL, NettyConnections.READ_IDLE,
                NettyConnections.readIdle(silence));
        channel.pipeline().addBefore(PooledChannelInitializer.IDLE_TAIL, RESPONSE, handler);
        handler.attached(channel);
        if (handler.outcome().isDone() || !handler.startWriting()) {
            ReferenceCountUtil.release(request);
            handler.abort(channel, new ExchangeOutcome.Failed(new McpTransportException(Kind.CLOSED,
                    "the request to server '" + server + "' was abandoned before it was written")));
            return;
        }
        channel.writeAndFlush(request).addListener(written -> {
            if (!written.isSuccess()) {
                handler.abort(channel, HttpFailures.onChannel(server, written.cause()));
            }
        });
    }

    /** Runs {@code task} on the event loop after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return connections.schedule(task, delay);
    }

    private void giveBack(Channel channel, boolean reusable) {
        NettyConnections.detach(channel, reusable, NettyConnections.READ_IDLE, RESPONSE);
        pool.release(channel);
    }

    /** Whether the caller runs on this client's event loop (where it must never block). */
    boolean inEventLoop() {
        return connections.inEventLoop();
    }

    @Override
    public void close() {
        List<Waiting> dropped;
        synchronized (permits) {
            closed = true;
            dropped = List.copyOf(waiting);
            waiting.clear();
        }
        for (Waiting entry : dropped) {
            ReferenceCountUtil.release(entry.request());
            entry.handler().outcome().complete(new ExchangeOutcome.Failed(new McpTransportException(Kind.CLOSED,
                    "transport to server '" + server + "' was closed")));
        }
        pool.close();
        connections.close();
    }
}
