package dev.mcptasks.adapters.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP listener: serves the registered routes by exact path, on its own event loop, answering each request
 * from a small pool so a slow route (a store read) never blocks the loop. Started and closed by the application.
 */
public final class AdminListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminListener.class);
    private static final int MAX_REQUEST_BYTES = 16 * 1024;
    private static final int ROUTE_THREADS = 4;

    private final AdminSettings settings;
    private final Map<String, AdminRoute> routes;
    private EventLoopGroup loop;
    private ExecutorService work;
    private Channel server;

    AdminListener(AdminSettings settings, Map<String, AdminRoute> routes) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.routes = Map.copyOf(routes);
        // fail at assembly, before anything starts: an open listener beyond loopback is refused, not warned about
        InetAddress bind = resolve(settings.host());
        if (!settings.requiresToken() && !bind.isLoopbackAddress()) {
            throw new IllegalStateException("refusing to serve the admin listener on the non-loopback address "
                    + settings.host() + " without admin.token: configure a token or bind 127.0.0.1");
        }
    }

    /** Binds and serves; a second call does nothing. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        work = Executors.newFixedThreadPool(ROUTE_THREADS, runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-admin-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        AdminHandler handler = new AdminHandler(routes, new AdminAuth(settings, System::nanoTime), work);
        try {
            server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new HttpServerCodec(),
                                    new HttpObjectAggregator(MAX_REQUEST_BYTES), handler);
                        }
                    })
                    .bind(new InetSocketAddress(resolve(settings.host()), settings.port())).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopThreads();
            throw new IllegalStateException("interrupted while binding the admin listener");
        } catch (RuntimeException e) {
            stopThreads();
            throw new IllegalStateException("cannot listen on " + settings.host() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
        LOG.info("admin listener on http://{}:{} ({}), routes {}", settings.host(), address().getPort(),
                settings.requiresToken() ? "token or login required" : "loopback, no token", routes.keySet());
    }

    /** The bound address (the real port when an ephemeral one was asked for). */
    public synchronized InetSocketAddress address() {
        if (server == null) {
            throw new IllegalStateException("the admin listener is not started");
        }
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.close().syncUninterruptibly();
            server = null;
        }
        stopThreads();
    }

    private void stopThreads() {
        if (work != null) {
            work.shutdownNow();
        }
        if (loop != null) {
            loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve the admin bind address " + host);
        }
    }
}
