package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.NettyConnections;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;

/**
 * The Netty side of one legacy transport: one event-loop thread, one dedicated connection for the SSE stream, and a
 * bounded pool of keep-alive connections for the POSTs ({@code maxConnections}; further POSTs wait for one in order).
 * Over TLS a request is written only after the handshake succeeded, so a handshake failure is a connect failure.
 */
final class LegacyHttpClient implements AutoCloseable {
    private static final String EXCHANGE = "exchange";

    private final String server;
    private final Duration readTimeout;
    private final NettyConnections connections;
    private final FixedChannelPool posts;

    LegacyHttpClient(String server, HttpTarget endpoint, Duration connectTimeout, Duration readTimeout,
            int maxConnections) {
        this.server = server;
        this.readTimeout = readTimeout;
        this.connections = new NettyConnections(server, endpoint, connectTimeout);
        this.posts = new FixedChannelPool(connections.bootstrap(), new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel channel) {
                connections.initialize(channel);
            }
        }, maxConnections);
    }

    /** Opens the SSE stream on a connection of its own; {@code reader} hears how it goes. */
    void openStream(HttpRequest request, StreamReader reader) {
        ChannelFuture connecting;
        try {
            connecting = connections.bootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel channel) {
                    connections.initialize(channel);
                    channel.pipeline().addLast(NettyConnections.READ_IDLE, NettyConnections.readIdle(readTimeout));
                    channel.pipeline().addLast(EXCHANGE, reader);
                }
            }).connect();
        } catch (RuntimeException e) {
            ReferenceCountUtil.release(request);
            reader.failed(connectFailure(e));
            return;
        }
        reader.attached(connecting.channel());
        connecting.addListener(connected -> {
            if (!connected.isSuccess()) {
                ReferenceCountUtil.release(request);
                reader.failed(connectFailure(connected.cause()));
                return;
            }
            whenSecured(connecting.channel(), request, reader::failed);
        });
    }

    /** Sends a POST once a pooled connection is free; {@code exchange.done()} tells how it ended. */
    void post(HttpRequest request, PostExchange exchange) {
        Future<Channel> acquiring;
        try {
            acquiring = posts.acquire();
        } catch (RuntimeException e) {
            ReferenceCountUtil.release(request);
            exchange.failed(connectFailure(e));
            return;
        }
        acquiring.addListener(acquired -> {
            if (!acquired.isSuccess()) {
                ReferenceCountUtil.release(request);
                exchange.failed(connectFailure(acquired.cause()));
                return;
            }
            Channel channel = (Channel) acquired.getNow();
            if (!exchange.attach(channel, this::giveBack)) {
                // abandoned while it waited for a connection: never written
                ReferenceCountUtil.release(request);
                posts.release(channel);
                return;
            }
            channel.pipeline().addLast(NettyConnections.READ_IDLE, NettyConnections.readIdle(readTimeout));
            channel.pipeline().addLast(EXCHANGE, exchange);
            whenSecured(channel, request, exchange::failed);
        });
    }

    private void whenSecured(Channel channel, HttpRequest request,
            java.util.function.Consumer<McpTransportException> failed) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null) {
            write(channel, request, failed);
            return;
        }
        tls.handshakeFuture().addListener(handshake -> {
            if (handshake.isSuccess()) {
                write(channel, request, failed);
            } else {
                ReferenceCountUtil.release(request);
                channel.close();
                failed.accept(connectFailure(handshake.cause()));
            }
        });
    }

    private static void write(Channel channel, HttpRequest request,
            java.util.function.Consumer<McpTransportException> failed) {
        channel.writeAndFlush(request).addListener(written -> {
            if (!written.isSuccess()) {
                channel.close();
                failed.accept(new McpTransportException(Kind.STREAM_BROKEN, "writing a request failed: "
                        + written.cause(), written.cause()));
            }
        });
    }

    /** Takes the exchange's handlers off a pooled connection and returns it (closed unless reusable). */
    private void giveBack(Channel channel, boolean reusable) {
        NettyConnections.detach(channel, reusable, NettyConnections.READ_IDLE, EXCHANGE);
        posts.release(channel);
    }

    private McpTransportException connectFailure(Throwable cause) {
        return NettyConnections.connectFailure(server, cause);
    }

    /** Runs {@code task} on the event loop after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return connections.schedule(task, delay);
    }

    /** Whether the caller runs on this client's event loop (where it must never block). */
    boolean inEventLoop() {
        return connections.inEventLoop();
    }

    @Override
    public void close() {
        posts.close();
        connections.close();
    }
}
