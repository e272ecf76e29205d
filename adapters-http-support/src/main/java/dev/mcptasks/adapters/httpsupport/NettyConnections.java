package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The Netty plumbing every HTTP transport of one server shares: one event-loop thread, a bootstrap to the server's
 * origin, the TLS context (JDK provider, the JVM's default trust store, hostname verification on) and the HTTP/1.1
 * codec of a new connection. What a transport does with its connections (pools, bounds, handlers) is its own.
 */
public final class NettyConnections implements AutoCloseable {
    /** The pipeline names of the handlers every connection starts with. */
    public static final String TLS = "tls";
    public static final String CODEC = "http";
    /** The pipeline name of an exchange's {@link #readIdle} timer. */
    public static final String READ_IDLE = "read-idle";

    private final HttpTarget target;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final SslContext ssl;

    public NettyConnections(String server, HttpTarget target, Duration connectTimeout) {
        this.target = target;
        this.ssl = target.tls() ? sslContext(server) : null;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .remoteAddress(target.host(), target.port());
    }

    /** A bootstrap to the server's origin, on this event loop; a caller sets its handler (or hands it to a pool). */
    public Bootstrap bootstrap() {
        return bootstrap.clone();
    }

    /** Adds TLS (for https) and the HTTP/1.1 client codec to a new connection's pipeline. */
    public void initialize(Channel channel) {
        if (ssl != null) {
            channel.pipeline().addLast(TLS, ssl.newHandler(channel.alloc(), target.host(), target.port()));
        }
        channel.pipeline().addLast(CODEC, new HttpClientCodec());
    }

    /** The timer that bounds the server's silence on an exchange ({@code IdleStateEvent} after {@code silence}). */
    public static IdleStateHandler readIdle(Duration silence) {
        return new IdleStateHandler(silence.toMillis(), 0, 0, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes an exchange's handlers off a connection, by name, before it goes back to its pool (closed first unless
     * {@code reusable}).
     */
    public static void detach(Channel channel, boolean reusable, String... handlers) {
        for (String name : handlers) {
            if (channel.pipeline().get(name) != null) {
                channel.pipeline().remove(name);
            }
        }
        if (!reusable) {
            channel.close();
        }
    }

    /** A failure to get a connection at all: nothing was sent. */
    public static McpTransportException connectFailure(String server, Throwable cause) {
        if (cause instanceof ConnectTimeoutException) {
            // a connect timeout is not a read timeout: no connection, so nothing was sent
            return new McpTransportException(Kind.CONNECT_FAILED, "connecting to server '" + server + "' timed out",
                    cause);
        }
        return new McpTransportException(Kind.CONNECT_FAILED, "cannot connect to server '" + server + "': " + cause,
                cause);
    }

    /** Runs {@code task} on the event loop after {@code delay}. */
    public ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return group.next().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the caller runs on this event loop (where it must never block). */
    public boolean inEventLoop() {
        return group.next().inEventLoop();
    }

    /** Shuts the event loop down; waits for it (a few seconds at most) unless called on it. */
    @Override
    public void close() {
        Future<?> shutdown = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (!inEventLoop()) {
            shutdown.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static SslContext sslContext(String server) {
        try {
            // JDK provider, the JVM's default trust store; hostname verification is on by default in Netty 4.2
            return SslContextBuilder.forClient().sslProvider(SslProvider.JDK).endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for server '" + server + "': " + e.getMessage(), e);
        }
    }
}
