package dev.mcptasks.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The Netty side of one HTTP transport: one event-loop thread and a pool of keep-alive connections to the endpoint.
 * Each exchange borrows a connection, adds a read-idle timer and its {@link ResponseHandler}, and returns it when the
 * response is done.
 */
final class NettyHttpClient implements AutoCloseable {
    private static final String IDLE = "read-idle";
    private static final String RESPONSE = "response";

    private final String server;
    private final Duration readTimeout;
    private final EventLoopGroup group;
    private final SimpleChannelPool pool;

    NettyHttpClient(String server, HttpEndpoint endpoint, Duration connectTimeout, Duration readTimeout) {
        this.server = server;
        this.readTimeout = readTimeout;
        SslContext ssl = endpoint.tls() ? sslContext(server) : null;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(endpoint.host(), endpoint.port());
        this.pool = new SimpleChannelPool(bootstrap, new PooledChannelInitializer(endpoint, ssl));
    }

    /** Sends {@code request} on a pooled connection; {@code handler.outcome()} tells how it ended. */
    void exchange(HttpRequest request, ResponseHandler handler) {
        handler.channelReturn(this::giveBack);
        io.netty.util.concurrent.Future<Channel> acquiring;
        try {
            acquiring = pool.acquire();
        } catch (RuntimeException e) {
            // the event loop is shutting down under a send that raced close()
            ReferenceCountUtil.release(request);
            handler.outcome().complete(new ExchangeOutcome.Failed(HttpFailures.connect(server, e)));
            return;
        }
        acquiring.addListener(acquired -> {
            if (!acquired.isSuccess()) {
                ReferenceCountUtil.release(request);
                handler.outcome().complete(new ExchangeOutcome.Failed(HttpFailures.connect(server, acquired.cause())));
                return;
            }
            Channel channel = (Channel) acquired.getNow();
            if (handler.outcome().isDone()) {
                // aborted while the connection was being made
                ReferenceCountUtil.release(request);
                pool.release(channel);
                return;
            }
            channel.pipeline().addBefore(PooledChannelInitializer.IDLE_TAIL, IDLE,
                    new IdleStateHandler(readTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
            channel.pipeline().addBefore(PooledChannelInitializer.IDLE_TAIL, RESPONSE, handler);
            handler.attached(channel);
            if (handler.outcome().isDone()) {
                ReferenceCountUtil.release(request);
                giveBack(channel, false);
                return;
            }
            channel.writeAndFlush(request).addListener(written -> {
                if (!written.isSuccess()) {
                    handler.abort(channel, HttpFailures.onChannel(server, written.cause()));
                }
            });
        });
    }

    /** Runs {@code task} on the event loop after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return group.next().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void giveBack(Channel channel, boolean reusable) {
        if (channel.pipeline().get(IDLE) != null) {
            channel.pipeline().remove(IDLE);
        }
        if (channel.pipeline().get(RESPONSE) != null) {
            channel.pipeline().remove(RESPONSE);
        }
        if (!reusable) {
            channel.close();
        }
        pool.release(channel);
    }

    /** Whether the caller runs on this client's event loop (where it must never block). */
    boolean inEventLoop() {
        return group.next().inEventLoop();
    }

    @Override
    public void close() {
        pool.close();
        io.netty.util.concurrent.Future<?> shutdown = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
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
