package dev.mcptasks.adapters.http;

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
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A Streamable HTTP server for resumption tests: a script answers each request with a JSON body or an SSE stream of
 * raw events that then ends cleanly, is cut (connection closed without the last chunk), or is held open. It hands
 * out one session id (and accepts its DELETE), records every request with its arrival time and when it ended each
 * stream, and counts the held streams the client has not closed yet.
 */
final class ResumableSsePeer implements AutoCloseable {
    static final String SESSION = "s-1";

    /** One request as the server saw it; {@code atNanos} is {@link System#nanoTime()} on arrival. */
    record Seen(String method, HttpHeaders headers, String body, long atNanos) {
        String lastEventId() {
            return headers.get(Requests.LAST_EVENT_ID);
        }
    }

    /** How an SSE answer ends. */
    enum End { CLEAN, CUT, HOLD }

    /** What the server answers. */
    sealed interface Reply {
        /** A whole answer, with {@code headers} besides the content type and the session id. */
        record Json(int status, String body, Map<String, String> headers) implements Reply {}

        /** The events, then after {@code endAfterMillis} (server-side, 0 = at once) the end. */
        record Sse(List<String> events, End end, long endAfterMillis) implements Reply {}
    }

    static Reply json(int status, String body) {
        return new Reply.Json(status, body, Map.of());
    }

    /** A refusal for want of authorization: {@code status} with {@code WWW-Authenticate: challenge} (none if null). */
    static Reply challenge(int status, String challenge) {
        return new Reply.Json(status, "{\"error\":\"invalid_token\"}",
                challenge == null ? Map.of() : Map.of("WWW-Authenticate", challenge));
    }

    static Reply sse(End end, String... events) {
        return new Reply.Sse(List.of(events), end, 0);
    }

    /** A priming event: an id, a {@code retry:} (when not negative) and empty data. */
    static String priming(String id, int retryMs) {
        return "id: " + id + "\n" + (retryMs >= 0 ? "retry: " + retryMs + "\n" : "") + "data: \n\n";
    }

    /** A message event, with an id unless it is null. */
    static String message(String id, String json) {
        return "event: message\n" + (id == null ? "" : "id: " + id + "\n") + "data: " + json + "\n\n";
    }

    final List<Seen> requests = new CopyOnWriteArrayList<>();
    /** When the server ended or cut a stream, in {@link System#nanoTime()}. */
    final List<Long> streamEnds = new CopyOnWriteArrayList<>();
    /** Held streams whose connection the client has not closed. */
    final AtomicInteger heldOpen = new AtomicInteger();
    final AtomicInteger heldEver = new AtomicInteger();
    volatile Function<Seen, Reply> script = seen -> json(405, "");
    /** What a DELETE gets. */
    volatile Function<Seen, Reply> deleteScript = seen -> json(200, "");

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    ResumableSsePeer() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/mcp");
    }

    /** The GET requests that carried {@code Last-Event-ID}, in order. */
    List<Seen> resumptions() {
        return requests.stream().filter(r -> r.method().equals("GET") && r.lastEventId() != null).toList();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private boolean held;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            Seen seen = new Seen(request.method().name(), request.headers().copy(),
                    request.content().toString(StandardCharsets.UTF_8), System.nanoTime());
            requests.add(seen);
            Reply reply = request.method().name().equals("DELETE") ? deleteScript.apply(seen) : script.apply(seen);
            if (reply instanceof Reply.Json json) {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.valueOf(json.status()), Unpooled.copiedBuffer(json.body(),
                                StandardCharsets.UTF_8));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                response.headers().set(SessionHeaders.SESSION_ID, SESSION);
                json.headers().forEach(response.headers()::set);
                ctx.writeAndFlush(response);
                return;
            }
            Reply.Sse sse = (Reply.Sse) reply;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            head.headers().set(SessionHeaders.SESSION_ID, SESSION);
            if (sse.end() == End.HOLD) {
                // counted before anything is written: the client may close the connection as soon as it reads
                held = true;
                heldOpen.incrementAndGet();
                heldEver.incrementAndGet();
            }
            ctx.write(head);
            for (String event : sse.events()) {
                ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(event, StandardCharsets.UTF_8)));
            }
            ctx.flush();
            if (sse.endAfterMillis() > 0) {
                ctx.executor().schedule(() -> end(ctx, sse.end()), sse.endAfterMillis(), TimeUnit.MILLISECONDS);
            } else {
                end(ctx, sse.end());
            }
        }

        private void end(ChannelHandlerContext ctx, End end) {
            switch (end) {
                case CLEAN -> {
                    streamEnds.add(System.nanoTime());
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                }
                case CUT -> {
                    streamEnds.add(System.nanoTime());
                    ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                }
                case HOLD -> { }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (held) {
                heldOpen.decrementAndGet();
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
