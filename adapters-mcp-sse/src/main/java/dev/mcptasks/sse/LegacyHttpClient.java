package dev.mcptasks.sse;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The Netty side of one legacy transport: one event-loop thread, one dedicated connection for the SSE stream, and a
 * bounded pool of keep-alive connections for the POSTs ({@code maxConnections}; further POSTs wait for one in order).
 * Over TLS a request is written only after the handshake succeeded, so a handshake failure is a connect failure.
 */
final class LegacyHttpClient implements AutoCloseable {
    private static final String IDLE = "read-idle";
    private static final String EXCHANGE = "exchange";

    private final String server;
    private final Duration readTimeout;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final FixedChannelPool posts;
    private final SslContext ssl;
    private final SseEndpoint endpoint;

    LegacyHttpClient(String server, SseEndpoint endpoint, Duration connectTimeout, Duration readTimeout,
            int maxConnections) {
        this.server = server;
        this.endpoint = endpoint;
        this.readTimeout = readTimeout;
        this.ssl = endpoint.tls() ? sslContext(server) : null;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .remoteAddress(endpoint.host(), endpoint.port());
        this.posts = new FixedChannelPool(bootstrap, new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel channel) {
                initChannel(channel);
            }
        }, maxConnections);
    }

    /** Opens the SSE stream on a connection of its own; {@code reader} hears how it goes. */
    void openStream(HttpRequest request, StreamReader reader) {
        ChannelFuture connecting;
        try {
            connecting = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel channel) {
                    LegacyHttpClient.this.initChannel(channel);
                    channel.pipeline().addLast(IDLE, idle());
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
            channel.pipeline().addLast(IDLE, idle());
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
        if (channel.pipeline().get(IDLE) != null) {
            channel.pipeline().remove(IDLE);
        }
        if (channel.pipeline().get(EXCHANGE) != null) {
            channel.pipeline().remove(EXCHANGE);
        }
        if (!reusable) {
            channel.close();
        }
        posts.release(channel);
    }

    private void initChannel(Channel channel) {
        if (ssl != null) {
            channel.pipeline().addLast("tls", ssl.newHandler(channel.alloc(), endpoint.host(), endpoint.port()));
        }
        channel.pipeline().addLast("http", new HttpClientCodec());
    }

    private IdleStateHandler idle() {
        return new IdleStateHandler(readTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS);
    }

    private McpTransportException connectFailure(Throwable cause) {
        if (cause instanceof io.netty.channel.ConnectTimeoutException) {
            return new McpTransportException(Kind.CONNECT_FAILED, "connecting to server '" + server + "' timed out",
                    cause);
        }
        return new McpTransportException(Kind.CONNECT_FAILED, "cannot connect to server '" + server + "': " + cause,
                cause);
    }

    /** Runs {@code task} on the event loop after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return group.next().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the caller runs on this client's event loop (where it must never block). */
    boolean inEventLoop() {
        return group.next().inEventLoop();
    }

    @Override
    public void close() {
        posts.close();
        Future<?> shutdown = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (!inEventLoop()) {
            shutdown.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static SslContext sslContext(String server) {
        try {
            // the JVM's default trust store; hostname verification on
            return SslContextBuilder.forClient().sslProvider(SslProvider.JDK).endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for server '" + server + "': " + e.getMessage(), e);
        }
    }
}
