package dev.mcptasks.adapters.http;

import dev.mcptasks.testkit.transport.JsonMembers;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-test Streamable HTTP server following {@link ScriptedPeer}: sessions, JSON or SSE answers, a GET stream, an
 * event store replaying on {@code Last-Event-ID}, and knobs for the quirks of real servers. Its state is shared with
 * the per-connection {@link ScriptedHttpPeerHandler}.
 */
final class ScriptedHttpPeer implements AutoCloseable {

    /** How POST requests are answered. */
    enum Mode { JSON, SSE }

    /** One request as the server saw it. */
    record Seen(String method, String uri, HttpHeaders headers, String body) {}

    /** One stored SSE event, for replay. */
    record StoredEvent(String id, String data) {}

    final Mode mode;
    final ScriptedPeer script = new ScriptedPeer();
    final Set<String> sessions = ConcurrentHashMap.newKeySet();
    final Map<String, Channel> getStreams = new ConcurrentHashMap<>();
    final List<StoredEvent> events = new CopyOnWriteArrayList<>();
    final List<Seen> requests = new CopyOnWriteArrayList<>();
    final LinkedBlockingQueue<String> deleted = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> getStreamOpened = new LinkedBlockingQueue<>();
    final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    final AtomicInteger connectionCount = new AtomicInteger();
    final AtomicInteger eventIds = new AtomicInteger();
    /** server-everything answers 400 "No valid session" instead of 404. */
    volatile boolean everythingQuirk;
    /** Whether GET is answered with a stream (else 405). */
    volatile boolean getStream = true;
    /** The {@code retry:} sent on priming events. */
    volatile int retryMs = 20;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    ScriptedHttpPeer(Mode mode) throws InterruptedException {
        this.mode = mode;
        ScriptedHttpPeer peer = this;
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connectionCount.incrementAndGet();
                        connections.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new ScriptedHttpPeerHandler(peer));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/mcp");
    }

    String nextEventId() {
        return "e-" + eventIds.incrementAndGet();
    }

    /** The JSON-RPC method of a request body, or null. */
    static String methodOf(String body) {
        return JsonMembers.unquote(JsonMembers.of(body).get("method"));
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
