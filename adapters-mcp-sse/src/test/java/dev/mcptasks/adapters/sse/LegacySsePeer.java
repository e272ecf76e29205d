package dev.mcptasks.adapters.sse;

import dev.mcptasks.testkit.transport.ScriptedPeer;
import dev.mcptasks.testkit.transport.ScriptedPeer.Action;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-test server of the legacy HTTP+SSE transport following {@link ScriptedPeer}, shaped like the TypeScript SDK's
 * {@code SSEServerTransport}: {@code GET /sse} opens a session's stream whose first event names
 * {@code /message?sessionId=...}; each POST there is answered 202 and its script's messages go out on the stream;
 * {@code dropSession} (and {@code exit}) end the stream after the echo, and later POSTs of that session get 404.
 * Knobs change what the GET answers and whether POSTs are answered at all.
 */
final class LegacySsePeer implements AutoCloseable {
    /** One request as the server saw it. */
    record Seen(String method, String uri, HttpHeaders headers, String body) {
        String authorization() {
            return headers.get(HttpHeaderNames.AUTHORIZATION);
        }
    }

    /** A refusal for want of authorization: the status and the {@code WWW-Authenticate} header (none if null). */
    record Refusal(int status, String wwwAuthenticate) {}

    final ScriptedPeer script = new ScriptedPeer();
    final Map<String, Channel> streams = new ConcurrentHashMap<>();
    final List<Seen> requests = new CopyOnWriteArrayList<>();
    /** Session ids whose stream the client closed. */
    final LinkedBlockingQueue<String> closedByClient = new LinkedBlockingQueue<>();
    /** POSTs held without an answer ({@link #holdPosts}). */
    final LinkedBlockingQueue<Channel> heldPosts = new LinkedBlockingQueue<>();
    final AtomicInteger sessionIds = new AtomicInteger();
    /** What the endpoint event names; {@code %s} is the session id. */
    volatile String endpointFormat = "/message?sessionId=%s";
    /** Answers the GET with this status instead of a stream, when set. */
    volatile int refuseGetWith;
    /** Answers the GET with a stream that never names an endpoint. */
    volatile boolean withholdEndpoint;
    /** Leaves POSTs unanswered. */
    volatile boolean holdPosts;
    /** Decides, before anything else, whether a request is refused for want of authorization (null: it is not). */
    volatile Function<Seen, Refusal> refuse = seen -> null;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    LegacySsePeer() throws InterruptedException {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port() + "/sse");
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The requests seen with this method. */
    List<Seen> seen(String method) {
        return requests.stream().filter(seen -> seen.method().equals(method)).toList();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private String streamOf;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String body = request.content().toString(StandardCharsets.UTF_8);
            Seen seen = new Seen(request.method().name(), request.uri(), request.headers().copy(), body);
            requests.add(seen);
            Refusal refusal = refuse.apply(seen);
            if (refusal != null) {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(refusal.status()), Unpooled.copiedBuffer(
                                "{\"error\":\"invalid_token\"}", StandardCharsets.UTF_8));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                if (refusal.wwwAuthenticate() != null) {
                    response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, refusal.wwwAuthenticate());
                }
                ctx.writeAndFlush(response);
                return;
            }
            QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            if (request.method().equals(HttpMethod.GET) && uri.path().equals("/sse")) {
                openStream(ctx);
            } else if (request.method().equals(HttpMethod.POST) && uri.path().equals("/message")) {
                List<String> ids = uri.parameters().get("sessionId");
                post(ctx, ids == null ? null : ids.get(0), body);
            } else {
                respond(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed");
            }
        }

        private void openStream(ChannelHandlerContext ctx) {
            if (refuseGetWith != 0) {
                respond(ctx, HttpResponseStatus.valueOf(refuseGetWith), "no SSE here");
                return;
            }
            String session = "s-" + sessionIds.incrementAndGet();
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
            response.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            ctx.writeAndFlush(response);
            streamOf = session;
            streams.put(session, ctx.channel());
            if (!withholdEndpoint) {
                write(ctx.channel(), "event: endpoint\ndata: " + String.format(endpointFormat, session) + "\n\n");
            }
        }

        private void post(ChannelHandlerContext ctx, String session, String body) {
            Channel stream = session == null ? null : streams.get(session);
            if (stream == null) {
                respond(ctx, HttpResponseStatus.NOT_FOUND, "Could not find session");
                return;
            }
            if (holdPosts) {
                heldPosts.add(ctx.channel());
                return;
            }
            respond(ctx, HttpResponseStatus.ACCEPTED, "Accepted");
            for (Action action : script.handle(body)) {
                if (action instanceof Action.Emit emit) {
                    write(stream, "event: message\ndata: " + emit.json() + "\n\n");
                } else if (action instanceof Action.EmitMalformed malformed) {
                    write(stream, "event: message\ndata: " + malformed.text() + "\n\n");
                } else if (action instanceof Action.DropSession || action instanceof Action.Exit) {
                    streams.remove(session);
                    // the end of the chunked stream: the session is over
                    stream.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
                } else if (action instanceof Action.Fail fail) {
                    write(stream, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"failed\",\"params\":{\"status\":"
                            + fail.status() + "}}\n\n");
                }
                // Hang: accepted, never answered
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (streamOf != null && streams.remove(streamOf) != null) {
                closedByClient.add(streamOf);
            }
            ctx.fireChannelInactive();
        }

        private void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String text) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            ctx.writeAndFlush(response);
        }
    }

    /** One SSE chunk on a stream. */
    static void write(Channel stream, String text) {
        stream.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
    }
}
